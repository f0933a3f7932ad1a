import bcrypt from 'bcryptjs'
import { runAs } from '../core/caller.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { hashToken, issueSession, newSession } from './sessions.ts'
import { AUTH_ADMIN, USER_COLUMNS, type UserRow } from './users.ts'

/** POST /auth/v1/token?grant_type=password|refresh_token: signs in, or rotates a refresh token. */
export async function token(context: AuthContext, { req, res, url }: ApiRequest) {
  const body = ((await readJson(req, 'auth')) ?? {}) as Record<string, unknown>
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw authError(400, 'validation_failed', 'body must be a JSON object')
  const grant = url.searchParams.get('grant_type')
  if (grant === 'password') return sendJson(res, 200, await passwordGrant(context, body), API_VERSION)
  if (grant === 'refresh_token') return sendJson(res, 200, await refreshGrant(context, body), API_VERSION)
  throw authError(400, 'unsupported_grant_type', 'unsupported_grant_type')
}

async function passwordGrant({ db, options }: AuthContext, body: { email?: unknown; password?: unknown }) {
  if (typeof body.email !== 'string' || typeof body.password !== 'string')
    throw authError(400, 'validation_failed', 'missing email or password')
  const email = body.email.trim().toLowerCase()
  const found = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) =>
    tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where email = $1`, [email]),
  )
  const user = found.rows[0]
  // Compare even without a user so the answer takes as long either way.
  const ok = await bcrypt.compare(body.password, user?.encrypted_password ?? '$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva')
  if (!user || !ok) throw authError(400, 'invalid_credentials', 'Invalid login credentials')
  // Only after the password matched, as GoTrue: the refusal tells nothing to someone who guesses.
  if (!user.email_confirmed_at) throw authError(400, 'email_not_confirmed', 'Email not confirmed')
  return runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const { rows } = await tx.query<UserRow>(`update auth.users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`, [
      user.id,
    ])
    return newSession(options, tx, rows[0]!)
  })
}

async function refreshGrant({ db, options }: AuthContext, body: { refresh_token?: unknown }) {
  if (typeof body.refresh_token !== 'string' || body.refresh_token === '')
    throw authError(400, 'validation_failed', 'refresh_token required')
  const tokenHash = hashToken(body.refresh_token)
  const outcome = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const { rows } = await tx.query<{ user_id: string; session_id: string; revoked: boolean; reusable: boolean }>(
      `select user_id, session_id, revoked, updated_at + make_interval(secs => $2) > now() as reusable
         from auth.refresh_tokens where token = $1 for update`,
      [tokenHash, options.refreshTokenReuseSeconds],
    )
    const stored = rows[0]
    if (!stored) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
    if (stored.revoked && !stored.reusable) {
      // A rotated token used again means it leaked: end the whole session, as GoTrue does.
      await tx.query('delete from auth.sessions where id = $1', [stored.session_id])
      return { error: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
    }
    // Within the reuse interval a rotated token still refreshes (GoTrue's
    // SECURITY_REFRESH_TOKEN_REUSE_INTERVAL): a page reloaded while its refresh was answered never
    // stored the new token, and must not be signed out for it. Its revocation time stays the first.
    if (!stored.revoked) await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [tokenHash])
    await tx.query('update auth.sessions set updated_at = now() where id = $1', [stored.session_id])
    const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [stored.user_id])).rows[0]
    if (!user) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
    return { session: await issueSession(options, tx, user, stored.session_id, tokenHash) }
  })
  // The revocation above must commit even though the answer is an error.
  if ('error' in outcome) throw outcome.error
  return outcome.session
}
