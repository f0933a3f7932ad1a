// init-user-tokens: creates the caller's CUBE wallet with the welcome bonus exactly once, by
// calling public.init_user_tokens() with the caller's own JWT so RLS and auth.uid() see the user.
// Answers 200 { wallet: { balance, daily_earned } }; 401 without a valid user token; 405 for
// anything but POST; 400 { error, code } when the SQL function refuses.
// One module for both runtimes: index.ts serves it on Deno (hosted), the embedded local backend
// through its functions registry (supabase/local/functions/registry.ts).
import { bearerToken, json, preflight, type EdgeHandler } from '../_shared/http.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export const SIGN_IN_FIRST = 'Sign in first: a user access token is required'

export function initUserTokens(deps: { clientFor: UserClientFactory }): EdgeHandler {
  return async (req) => {
    if (req.method === 'OPTIONS') return preflight()
    if (req.method !== 'POST') return json({ error: 'Method not allowed: use POST' }, 405)

    const token = bearerToken(req)
    if (!token) return json({ error: SIGN_IN_FIRST }, 401)

    const supabase = deps.clientFor(token)
    const { data: userData, error: userError } = await supabase.auth.getUser(token)
    if (userError || !userData.user) return json({ error: SIGN_IN_FIRST }, 401)

    const { data, error } = await supabase.rpc('init_user_tokens')
    if (error) return json({ error: error.message, code: error.code }, 400)
    return json({ wallet: data })
  }
}
