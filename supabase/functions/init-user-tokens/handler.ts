// init-user-tokens: creates the caller's CUBE wallet with the welcome bonus exactly once, by
// calling public.init_user_tokens() with the caller's own JWT so RLS and auth.uid() see the user.
// Answers 200 { wallet: { balance, daily_earned } }; 401 without a valid user token; 405 for
// anything but POST; 400 { error, code } when the SQL function refuses.
// One module for both runtimes: index.ts serves it on Deno (hosted), the embedded local backend
// through its functions registry (supabase/local/functions/registry.ts).
import { json, type EdgeHandler } from '../_shared/http.ts'
import { SIGN_IN_REQUIRED, signedInPost } from '../_shared/signed-in.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export const SIGN_IN_FIRST = SIGN_IN_REQUIRED

export function initUserTokens(deps: { clientFor: UserClientFactory }): EdgeHandler {
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller

    const { data, error } = await caller.user.rpc('init_user_tokens')
    if (error) return json({ error: error.message, code: error.code }, 400)
    return json({ wallet: data })
  }
}
