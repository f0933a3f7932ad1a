// Edge function for hosted Supabase (Deno). The logic is in handler.ts, shared with the embedded
// local backend; this file only wires it to Deno and supabase-js.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { initUserTokens } from './handler.ts'

Deno.serve(
  initUserTokens({
    clientFor: (accessToken) =>
      createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_ANON_KEY')!, {
        global: { headers: { Authorization: `Bearer ${accessToken}` } },
        auth: { persistSession: false, autoRefreshToken: false },
      }),
  }),
)
