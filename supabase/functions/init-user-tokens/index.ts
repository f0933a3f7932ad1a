// Edge function for hosted Supabase (Deno): creates the caller's CUBE wallet with the welcome
// bonus exactly once, by calling public.init_user_tokens() with the caller's own JWT so RLS and
// auth.uid() see the user. Answers { wallet: { balance, daily_earned } }.
// The embedded local backend serves the same contract (supabase/local/functions/init-user-tokens.ts).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { ...corsHeaders, 'Content-Type': 'application/json' } })

Deno.serve(async (req: Request) => {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders })
  if (req.method !== 'POST') return json({ error: 'Method not allowed: use POST' }, 405)

  const authorization = req.headers.get('Authorization') ?? ''
  const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1]
  if (!token) return json({ error: 'Sign in first: a user access token is required' }, 401)

  const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { headers: { Authorization: `Bearer ${token}` } },
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const { data: userData, error: userError } = await supabase.auth.getUser(token)
  if (userError || !userData.user) return json({ error: 'Sign in first: a user access token is required' }, 401)

  const { data, error } = await supabase.rpc('init_user_tokens')
  if (error) return json({ error: error.message, code: error.code }, 400)
  return json({ wallet: data })
})
