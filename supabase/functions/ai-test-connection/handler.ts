// ai-test-connection: an administrator's 'Test connection' for one AI category. The server reads
// the stored key (never sent to the browser), calls the provider and reports its answer.
// POST { category } → 200 { ok, message }; 401 without a user; 403 for non-administrators.
import type { AiConfigSource } from '../_shared/ai-provider.ts'
import { testConnection } from '../_shared/ai-provider.ts'
import { json, type EdgeHandler } from '../_shared/http.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { GuardedFetch } from '../_shared/outbound-guard.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export function aiTestConnection(deps: { clientFor: UserClientFactory; aiConfig: AiConfigSource; fetch: GuardedFetch }): EdgeHandler {
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    const admin = await caller.user.rpc('is_admin')
    if (admin.error || admin.data !== true) return json({ error: 'Administrators only.' }, 403)
    const body = (await req.json().catch(() => null)) as { category?: unknown } | null
    const category = typeof body?.category === 'string' ? body.category : ''
    const config = await deps.aiConfig.provider(category)
    if (!config) return json({ error: 'The category must be image, text, music or inference.' }, 400)
    const { timeoutMs } = await deps.aiConfig.limits()
    return json(await testConnection(config, deps.fetch, timeoutMs))
  }
}
