// ai-text: text generation through the administrator's Text AI provider, for any signed-in user
// (the NFT description generator and other text features). The key stays on the server.
// POST { prompt, maxTokens? } → 200 { text }; 204 when Text AI is the built-in generator (the
// client then uses its own); 401 without a user; 400 bad input; 502 when the provider fails.
import { ON_DEVICE, generateText, type AiConfigSource } from '../_shared/ai-provider.ts'
import { corsHeaders, json, type EdgeHandler } from '../_shared/http.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export const MAX_PROMPT = 4000

export function aiText(deps: { clientFor: UserClientFactory; aiConfig: AiConfigSource; fetch: typeof fetch }): EdgeHandler {
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    const body = (await req.json().catch(() => null)) as { prompt?: unknown; maxTokens?: unknown } | null
    const prompt = typeof body?.prompt === 'string' ? body.prompt.trim() : ''
    if (!prompt || prompt.length > MAX_PROMPT) return json({ error: `A prompt is 1 to ${MAX_PROMPT} characters.` }, 400)
    const maxTokens = typeof body?.maxTokens === 'number' && body.maxTokens >= 16 && body.maxTokens <= 1024 ? Math.floor(body.maxTokens) : 200
    const config = await deps.aiConfig.provider('text')
    if (!config || config.model === ON_DEVICE || config.provider === ON_DEVICE) return new Response(null, { status: 204, headers: corsHeaders })
    try {
      const text = await generateText(config, prompt, maxTokens, deps.fetch, await deps.aiConfig.limits())
      return json({ text, provider: config.model })
    } catch (error) {
      return json({ error: (error as Error).message }, 502)
    }
  }
}
