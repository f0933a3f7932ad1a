// The opening every user-facing POST edge function shares: the CORS preflight, POST only, and a
// signed-in user (checked by the auth service) who has finished two-factor sign-in. Returns the
// Response to send instead, or the user.
import { bearerToken, json, preflight } from './http.ts'
import type { UserClient, UserClientFactory } from './user-client.ts'

export const SIGN_IN_REQUIRED = 'Sign in first: a user access token is required'
export const FINISH_TWO_FACTOR =
  'Finish two-factor sign-in first: this account uses two-factor authentication and this session has not entered its code yet.'

/** The token's assurance level; only read after the auth service has accepted the token. */
function assuranceLevel(token: string): string | undefined {
  try {
    const payload = token.split('.')[1] ?? ''
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { aal?: unknown }
    return typeof claims.aal === 'string' ? claims.aal : undefined
  } catch {
    return undefined
  }
}

/**
 * The signed-in user behind the request's token, or the answer refusing it: 401 without a valid
 * user token; 403 when the account has a verified factor and the session is not aal2 (the same
 * rule as public.aal_satisfied(), which guards the tables, RPC and Storage). Functions often act
 * with the service role after this check, so it is the only aal check they get.
 */
export async function signedInUser(req: Request, clientFor: UserClientFactory): Promise<Response | { user: UserClient; userId: string }> {
  const token = bearerToken(req)
  if (!token) return json({ error: SIGN_IN_REQUIRED }, 401)
  const user = clientFor(token)
  const { data, error } = await user.auth.getUser(token)
  if (error || !data.user) return json({ error: SIGN_IN_REQUIRED }, 401)
  const twoFactor = (data.user.factors ?? []).some((f) => f.status === 'verified')
  if (twoFactor && assuranceLevel(token) !== 'aal2') return json({ error: FINISH_TWO_FACTOR, code: 'insufficient_aal' }, 403)
  return { user, userId: data.user.id }
}

export async function signedInPost(req: Request, clientFor: UserClientFactory): Promise<Response | { user: UserClient; userId: string }> {
  if (req.method === 'OPTIONS') return preflight()
  if (req.method !== 'POST') return json({ error: 'Method not allowed: use POST' }, 405)
  return signedInUser(req, clientFor)
}
