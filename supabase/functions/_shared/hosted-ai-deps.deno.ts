// Hosted (Deno) wiring shared by the AI edge functions: supabase-js as the caller, and the service
// role, the only reader of the stored provider keys (through public.ai_provider_for_call()) and
// the only counter of the ai-text quota. Outbound calls go through the outbound policy, with
// AI_PROVIDER_ALLOWED_HOSTS from the project's secrets (normally unset).
// Deno-only (npm: imports, Deno globals): excluded from the Node typecheck and lint like index.ts.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import type { AiConfigSource } from './ai-provider.ts'
import { allowedHostsFrom, guardedFetch, type GuardedFetch } from './outbound-guard.ts'
import type { ServiceClient } from './service-client.ts'
import type { UserClientFactory } from './user-client.ts'

/** Every A and AAAA address of a name (a missing record type is simply none). */
async function resolveAll(host: string): Promise<string[]> {
  const answers = await Promise.all((['A', 'AAAA'] as const).map((type) => Deno.resolveDns(host, type).catch(() => [] as string[])))
  return answers.flat()
}

export function hostedAiDeps(): { clientFor: UserClientFactory; aiConfig: AiConfigSource; fetch: GuardedFetch; service: ServiceClient } {
  const url = Deno.env.get('SUPABASE_URL')!
  const service = createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  return {
    clientFor: (accessToken) =>
      createClient(url, Deno.env.get('SUPABASE_ANON_KEY')!, {
        global: { headers: { Authorization: `Bearer ${accessToken}` } },
        auth: { persistSession: false, autoRefreshToken: false },
      }),
    aiConfig: {
      async provider(category) {
        const { data, error } = await service.rpc('ai_provider_for_call', { p_category: category })
        if (error) throw error
        return data
      },
      async limits() {
        const { data } = await service.from('site_settings').select('api_timeout_ms, max_retries').single()
        return { timeoutMs: data?.api_timeout_ms ?? 5000, retries: data?.max_retries ?? 3 }
      },
    },
    fetch: guardedFetch(fetch, { allowedHosts: allowedHostsFrom(Deno.env.get('AI_PROVIDER_ALLOWED_HOSTS')), resolve: resolveAll }),
    service,
  }
}
