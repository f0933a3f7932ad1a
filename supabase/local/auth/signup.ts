import bcrypt from 'bcryptjs'
import { runAs } from '../core/caller.ts'
import { authError, isSqlError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import type { AuthContext } from './context.ts'
import { checkRateLimit } from './rate-limit.ts'
import { newSession } from './sessions.ts'
import { PASSWORD_MIN_LENGTH } from './update-user.ts'
import { AUTH_ADMIN, EMAIL, USER_COLUMNS, type UserRow } from './users.ts'

/**
 * POST /auth/v1/signup: a confirmed user (no e-mail round trip locally) and their first session.
 * Every request counts against its client address's hourly limit first (GoTrue's 429 beyond it).
 */
export async function signup({ db, options, signupLimiter }: AuthContext, { req, res }: ApiRequest) {
  checkRateLimit(signupLimiter, req)
  const body = await readJson(req, 'auth')
  if (!options.emailSignup) throw authError(422, 'email_provider_disabled', 'Email signups are disabled')
  const { email, password, data } = (body ?? {}) as { email?: unknown; password?: unknown; data?: unknown }
  if (typeof email !== 'string' || !EMAIL.test(email.trim()))
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  if (typeof password !== 'string' || password === '') throw authError(400, 'validation_failed', 'Signup requires a valid password')
  if (password.length < PASSWORD_MIN_LENGTH) {
    const message = `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`
    const error = authError(422, 'weak_password', message)
    error.body.weak_password = { reasons: ['length'], message }
    throw error
  }
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data)))
    throw authError(400, 'validation_failed', 'data must be an object')
  const normalised = email.trim().toLowerCase()
  // GoTrue writes $2a$ hashes; bcryptjs's $2b$ is the same algorithm under another name.
  const hash = (await bcrypt.hash(password, options.bcryptRounds)).replace(/^\$2b\$/, '$2a$')
  const session = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const existing = await tx.query('select 1 from auth.users where email = $1', [normalised])
    if (existing.rows.length) throw authError(422, 'user_already_exists', 'User already registered')
    // A trigger refusing the user (public.handle_new_user: a username against the rule) is
    // GoTrue's 500 "Database error saving new user"; the app asks username_problem() first.
    const { rows } = await tx
      .query<UserRow>(
        `insert into auth.users (email, encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, last_sign_in_at)
       values ($1, $2, $3::jsonb, '{"provider":"email","providers":["email"]}'::jsonb, now(), now())
       on conflict (email) do nothing
       returning ${USER_COLUMNS}`,
        [normalised, hash, JSON.stringify(data ?? {})],
      )
      .catch((error: unknown) => {
        if (isSqlError(error)) throw authError(500, 'unexpected_failure', 'Database error saving new user')
        throw error
      })
    const user = rows[0]
    if (!user) throw authError(422, 'user_already_exists', 'User already registered')
    if (options.adminEmails.has(normalised)) {
      await tx.query("select set_config('role', 'service_role', true)")
      await tx.query('insert into public.administrators (user_id) values ($1) on conflict do nothing', [user.id])
      await tx.query("select set_config('role', 'supabase_auth_admin', true)")
    }
    return newSession(options, tx, user)
  })
  sendJson(res, 200, session)
}
