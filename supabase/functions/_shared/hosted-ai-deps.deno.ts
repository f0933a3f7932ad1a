// Hosted (Deno) wiring shared by the AI edge functions: supabase-js as the caller, and the service
// role, the only reader of the stored provider keys (through public.ai_provider_for_call()).
// Deno-only (npm: imports, Deno globals): excluded from the Node typecheck and lint like index.ts.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import type { AiConfigSource } from './ai-provider.ts'
import type { UserClientFactory } from './user-client.ts'

export function hostedAiDeps(): { clientFor: UserClientFactory; aiConfig: AiConfigSource; fetch: typeof fetch } {
  const url = Deno.env.get('SUPABASE_URL')!
  const service = createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: { persistSession: false, autoRefreshToken: false } })
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
    fetch,
  }
}
