// The opening every user-facing POST edge function shares: the CORS preflight, POST only, and a
// signed-in user (checked by the auth service). Returns the Response to send instead, or the user.
import { bearerToken, json, preflight } from './http.ts'
import type { UserClient, UserClientFactory } from './user-client.ts'

export const SIGN_IN_REQUIRED = 'Sign in first: a user access token is required'

export async function signedInPost(req: Request, clientFor: UserClientFactory): Promise<Response | { user: UserClient; userId: string }> {
  if (req.method === 'OPTIONS') return preflight()
  if (req.method !== 'POST') return json({ error: 'Method not allowed: use POST' }, 405)
  const token = bearerToken(req)
  if (!token) return json({ error: SIGN_IN_REQUIRED }, 401)
  const user = clientFor(token)
  const { data, error } = await user.auth.getUser(token)
  if (error || !data.user) return json({ error: SIGN_IN_REQUIRED }, 401)
  return { user, userId: data.user.id }
}
