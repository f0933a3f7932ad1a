import { randomUUID } from 'node:crypto'
import bcrypt from 'bcryptjs'
import { runAs } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import { authError, isSqlError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { grantListedAdmin } from './admin-grant.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { newLinkToken, safeRedirect, verifyLink } from './email-links.ts'
import { confirmSignupMail } from './mail-templates.ts'
import { deliver } from './mailer.ts'
import { checkRateLimit } from './rate-limit.ts'
import { newSession } from './sessions.ts'
import { PASSWORD_MIN_LENGTH } from './update-user.ts'
import { AUTH_ADMIN, EMAIL, USER_COLUMNS, userJson, type UserRow } from './users.ts'

/**
 * POST /auth/v1/signup. With confirmations on (the default) the user is created unconfirmed, gets
 * a confirmation mail and no session, as GoTrue does; with LOCAL_EMAIL_CONFIRM=off the user is
 * confirmed at once and gets their first session. Every request counts against its client
 * address's hourly limit first (GoTrue's 429 beyond it).
 *
 * An address already held by a confirmed account answers as GoTrue does (user_already_exists
 * without confirmations; with them, a look-alike user and no mail, so sign-up tells nobody which
 * addresses are registered). An address held only by an unconfirmed sign-up is not owned by it:
 * a new sign-up replaces that account (its link stops working), so a squatter cannot keep the
 * owner out; the owner's account is whichever sign-up's link is followed.
 */
export async function signup(context: AuthContext, { req, res, url }: ApiRequest) {
  const { db, options, signupLimiter } = context
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
  // Before the database is asked, so the refusal is the same whether or not the address has an account.
  if (options.emailConfirm) context.mailFrequency.take(normalised, 'signup')
  // GoTrue writes $2a$ hashes; bcryptjs's $2b$ is the same algorithm under another name.
  const hash = (await bcrypt.hash(password, options.bcryptRounds)).replace(/^\$2b\$/, '$2a$')
  const link = newLinkToken()
  const outcome = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const existing = await tx.query<{ id: string; confirmed: boolean }>(
      'select id, email_confirmed_at is not null as confirmed from auth.users where email = $1 for update',
      [normalised],
    )
    const held = existing.rows[0]
    if (held?.confirmed) {
      if (!options.emailConfirm) throw authError(422, 'user_already_exists', 'User already registered')
      return { kind: 'lookalike' as const }
    }
    if (held) await tx.query('delete from auth.users where id = $1', [held.id])
    const user = await insertUser(tx, normalised, hash, data ?? {}, options.emailConfirm ? link.hash : null)
    if (options.emailConfirm) return { kind: 'pending' as const, user }
    await grantListedAdmin(options, tx, user.id, normalised)
    return { kind: 'session' as const, session: await newSession(options, tx, user) }
  })
  if (outcome.kind === 'session') return sendJson(res, 200, outcome.session, API_VERSION)
  if (outcome.kind === 'lookalike') return sendJson(res, 200, lookalikeUser(normalised, data ?? {}), API_VERSION)
  const redirect = safeRedirect(options, url.searchParams.get('redirect_to'))
  deliver(options.sendMail, confirmSignupMail(normalised, verifyLink(options, link.token, 'signup', redirect)))
  sendJson(res, 200, userJson(outcome.user), API_VERSION)
}

async function insertUser(tx: Queryable, email: string, hash: string, data: object, confirmationHash: string | null): Promise<UserRow> {
  // A trigger refusing the user (public.handle_new_user: a username against the rule) is
  // GoTrue's 500 "Database error saving new user"; the app asks username_problem() first.
  const confirmed = confirmationHash === null
  const { rows } = await tx
    .query<UserRow>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, last_sign_in_at,
                               confirmation_token, confirmation_sent_at)
       values ($1, $2, $3::jsonb, '{"provider":"email","providers":["email"]}'::jsonb,
               case when $4 then now() end, case when $4 then now() end, $5, case when $4 then null else now() end)
       on conflict (email) do nothing
       returning ${USER_COLUMNS}`,
      [email, hash, JSON.stringify(data), confirmed, confirmationHash],
    )
    .catch((error: unknown) => {
      if (isSqlError(error)) throw authError(500, 'unexpected_failure', 'Database error saving new user')
      throw error
    })
  const user = rows[0]
  if (!user) throw authError(422, 'user_already_exists', 'User already registered')
  return user
}

/** What GoTrue answers for an address that is already registered: a user just like a new pending one. */
function lookalikeUser(email: string, data: object) {
  // In the database's own format (microseconds, +00:00), like a real row.
  const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1' + String(Math.floor(Math.random() * 1000)).padStart(3, '0') + '+00:00')
  return userJson({
    id: randomUUID(),
    email,
    encrypted_password: '',
    raw_user_meta_data: data as Record<string, unknown>,
    raw_app_meta_data: { provider: 'email', providers: ['email'] },
    email_confirmed_at: null,
    last_sign_in_at: null,
    created_at: now,
    updated_at: now,
    confirmation_sent_at: now,
    recovery_sent_at: null,
    email_change: null,
    email_change_sent_at: null,
    factors: null,
  })
}
