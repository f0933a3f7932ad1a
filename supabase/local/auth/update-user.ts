import bcrypt from 'bcryptjs'
import { runAs } from '../core/caller.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { liveSession } from './sessions.ts'
import { AUTH_ADMIN, EMAIL, USER_COLUMNS, userJson, type UserRow } from './users.ts'

/** The app's password rule (GoTrue's GOTRUE_PASSWORD_MIN_LENGTH). */
export const PASSWORD_MIN_LENGTH = 8

/**
 * PUT /auth/v1/user {password?, email?, current_password?, data?}: as GoTrue with
 * GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD on. A new password or e-mail needs the
 * current password (re-authentication), and an aal2 session when the account has a verified MFA
 * factor; a new password ends every other session of the account. Locally an e-mail change takes
 * effect at once (there is no mail round trip to confirm it).
 */
export async function updateUser({ db, options }: AuthContext, { req, res }: ApiRequest) {
  const body = ((await readJson(req, 'auth')) ?? {}) as Record<string, unknown>
  if (typeof body !== 'object' || Array.isArray(body)) throw authError(400, 'validation_failed', 'body must be a JSON object')
  const { password, email, current_password: current, data } = body
  if (password !== undefined && typeof password !== 'string') throw authError(400, 'validation_failed', 'password must be a string')
  if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email.trim())))
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data)))
    throw authError(400, 'validation_failed', 'data must be an object')
  if (typeof password === 'string' && password.length < PASSWORD_MIN_LENGTH) {
    const error = authError(422, 'weak_password', `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`)
    error.body.weak_password = { reasons: ['length'], message: error.body.msg }
    throw error
  }

  const row = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1 for update`, [session.sub])).rows[0]
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    const newEmail = typeof email === 'string' ? email.trim().toLowerCase() : undefined
    const sensitive = typeof password === 'string' || (newEmail !== undefined && newEmail !== user.email)
    if (sensitive) {
      if (typeof current !== 'string' || current === '')
        throw authError(400, 'current_password_required', 'Current password required to update the password or e-mail')
      if (!(await bcrypt.compare(current, user.encrypted_password)))
        throw authError(400, 'current_password_mismatch', 'Current password is incorrect')
      const verified = await tx.query("select 1 from auth.mfa_factors where user_id = $1 and status = 'verified'", [user.id])
      if (verified.rows.length && session.aal !== 'aal2')
        throw authError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.')
    }
    if (typeof password === 'string') {
      if (await bcrypt.compare(password, user.encrypted_password))
        throw authError(422, 'same_password', 'New password should be different from the old password.')
      const hash = (await bcrypt.hash(password, options.bcryptRounds)).replace(/^\$2b\$/, '$2a$')
      await tx.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [user.id, hash])
      await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [user.id, session.sessionId])
    }
    if (newEmail !== undefined && newEmail !== user.email) {
      const taken = await tx.query('select 1 from auth.users where email = $1', [newEmail])
      if (taken.rows.length) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
      await tx.query('update auth.users set email = $2, updated_at = now() where id = $1', [user.id, newEmail])
    }
    if (data !== undefined) {
      await tx.query(
        "update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = " +
          'now() where id = $1',
        [user.id, JSON.stringify(data)],
      )
    }
    return (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [user.id])).rows[0]!
  })
  sendJson(res, 200, userJson(row), API_VERSION)
}
