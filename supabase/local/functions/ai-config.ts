import type { AiConfigSource, ProviderConfig } from '../../functions/_shared/ai-provider.ts'
import { runAs } from '../core/caller.ts'
import type { Database } from '../core/db.ts'

/**
 * The server-side reader of AI provider settings and their keys for the local edge functions:
 * the service role, as SUPABASE_SERVICE_ROLE_KEY gives hosted functions. No HTTP route reaches it.
 */
export function localAiConfig(db: Database): AiConfigSource {
  const service = { role: 'service_role' }
  return {
    async provider(category) {
      const { rows } = await runAs(db, 'service_role', service, (tx) =>
        tx.query<{ v: ProviderConfig | null }>('select public.ai_provider_for_call($1) as v', [category]),
      )
      return rows[0]?.v ?? null
    },
    async limits() {
      const { rows } = await runAs(db, 'service_role', service, (tx) =>
        tx.query<{ t: number; r: number }>('select api_timeout_ms as t, max_retries as r from public.site_settings where id'),
      )
      return { timeoutMs: rows[0]?.t ?? 5000, retries: rows[0]?.r ?? 3 }
    },
  }
}
