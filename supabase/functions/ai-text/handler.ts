// ai-text: text generation through the administrator's Text AI provider, for any signed-in user
// (the NFT description generator and other text features). The key stays on the server, and each
// call to the paid provider takes one of today's quota (per user and site-wide, counted in SQL by
// public.ai_text_take) first.
// POST { prompt, maxTokens? } → 200 { text }; 204 when Text AI is the built-in generator (the
// client then uses its own); 401 without a user; 400 bad input; 429 over a daily quota; 502 when
// the provider fails.
import { ON_DEVICE, generateText, type AiConfigSource } from '../_shared/ai-provider.ts'
import { corsHeaders, json, type EdgeHandler } from '../_shared/http.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { GuardedFetch } from '../_shared/outbound-guard.ts'
import type { ServiceClient } from '../_shared/service-client.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export const MAX_PROMPT = 4000

type Take = { ok: true } | { ok: false; scope: 'user' | 'global'; limit: number }

const quotaMessage = (take: Extract<Take, { ok: false }>) =>
  take.scope === 'user'
    ? `You have used today's ${take.limit} AI text generations; more are available after 00:00 UTC.`
    : `The site has used today's ${take.limit} AI text generations; more are available after 00:00 UTC.`

export function aiText(deps: {
  clientFor: UserClientFactory
  aiConfig: AiConfigSource
  fetch: GuardedFetch
  service: ServiceClient
}): EdgeHandler {
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    const body = (await req.json().catch(() => null)) as { prompt?: unknown; maxTokens?: unknown } | null
    const prompt = typeof body?.prompt === 'string' ? body.prompt.trim() : ''
    if (!prompt || prompt.length > MAX_PROMPT) return json({ error: `A prompt is 1 to ${MAX_PROMPT} characters.` }, 400)
    const maxTokens =
      typeof body?.maxTokens === 'number' && body.maxTokens >= 16 && body.maxTokens <= 1024 ? Math.floor(body.maxTokens) : 200
    const config = await deps.aiConfig.provider('text')
    if (!config || config.model === ON_DEVICE || config.provider === ON_DEVICE)
      return new Response(null, { status: 204, headers: corsHeaders })
    const taken = await deps.service.rpc('ai_text_take', { p_user: caller.userId })
    if (taken.error) return json({ error: taken.error.message }, 500)
    const take = taken.data as Take
    if (!take.ok) return json({ error: quotaMessage(take), code: `ai_quota_${take.scope}` }, 429)
    try {
      const text = await generateText(config, prompt, maxTokens, deps.fetch, await deps.aiConfig.limits())
      return json({ text, provider: config.model })
    } catch (error) {
      return json({ error: (error as Error).message }, 502)
    }
  }
}
