import { runAs } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import { authError, HttpError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { grantListedAdmin } from './admin-grant.ts'
import { API_VERSION, type AuthContext, type AuthOptions } from './context.ts'
import { safeRedirect, type LinkType } from './email-links.ts'
import { hashToken, newSession } from './sessions.ts'
import { AUTH_ADMIN, USER_COLUMNS, type UserRow } from './users.ts'

const LINK_TYPES: readonly LinkType[] = ['signup', 'recovery', 'email_change']
const expired = () => authError(403, 'otp_expired', 'Email link is invalid or has expired')

/** Each link type's token and sent-at columns in auth.users. */
const COLUMNS: Record<LinkType, { token: string; sent: string }> = {
  signup: { token: 'confirmation_token', sent: 'confirmation_sent_at' },
  recovery: { token: 'recovery_token', sent: 'recovery_sent_at' },
  email_change: { token: 'email_change_token_new', sent: 'email_change_sent_at' },
}

/**
 * Follows one mailed link inside `tx`: the token must match an unexpired link of its type, and
 * is spent (a link works once). signup confirms the address; recovery confirms it too (the mail
 * reached it) and opens a recovery session; email_change moves the account to the confirmed new
 * address, replacing an unconfirmed sign-up that held it. A confirmed address in
 * LOCAL_ADMIN_EMAILS becomes an administrator here, never earlier.
 */
async function followLink(options: AuthOptions, tx: Queryable, type: LinkType, token: string) {
  const { token: tokenColumn, sent } = COLUMNS[type]
  const { rows } = await tx.query<{ id: string; email: string; email_change: string | null; confirmed: boolean }>(
    `select id, email, email_change, email_confirmed_at is not null as confirmed from auth.users
      where ${tokenColumn} = $1 and ${sent} > now() - make_interval(secs => $2) for update`,
    [hashToken(token), options.linkExpirySeconds],
  )
  const found = rows[0]
  if (!found) throw expired()
  let email = found.email
  if (type === 'email_change') {
    const next = found.email_change
    if (!next) throw expired()
    const holder = await tx.query<{ id: string; confirmed: boolean }>(
      'select id, email_confirmed_at is not null as confirmed from auth.users where email = $1 and id <> $2 for update',
      [next, found.id],
    )
    if (holder.rows[0]?.confirmed) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
    if (holder.rows[0]) await tx.query('delete from auth.users where id = $1', [holder.rows[0].id])
    await tx.query(
      `update auth.users set email = email_change, email_change = null, email_change_token_new = null, email_change_sent_at = null,
              email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1`,
      [found.id],
    )
    email = next
  } else {
    await tx.query(
      `update auth.users set ${tokenColumn} = null, email_confirmed_at = coalesce(email_confirmed_at, now()),
              last_sign_in_at = now(), updated_at = now() where id = $1`,
      [found.id],
    )
  }
  // Others' pending changes to this address can never be confirmed now: drop them.
  await tx.query('update auth.users set email_change = null, email_change_token_new = null where email_change = $1 and id <> $2', [
    email,
    found.id,
  ])
  await grantListedAdmin(options, tx, found.id, email)
  const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [found.id])).rows[0]!
  return newSession(options, tx, user, type === 'recovery' ? 'recovery' : 'otp')
}

const fragment = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')

/**
 * GET /auth/v1/verify?token=…&type=…&redirect_to=…: the link in the mail. As GoTrue's implicit
 * flow, it answers 303 to redirect_to (when on the site's origin, else the site) with the new
 * session in the fragment (`#access_token=…&type=signup`), or GoTrue's error fragment
 * (`#error=access_denied&error_code=otp_expired&…`) for a used, expired or unknown link.
 */
export async function verifyGet({ db, options }: AuthContext, { res, url }: ApiRequest) {
  const redirect = safeRedirect(options, url.searchParams.get('redirect_to'))
  const type = url.searchParams.get('type') as LinkType | null
  const token = url.searchParams.get('token') ?? ''
  let target: string
  try {
    if (!type || !LINK_TYPES.includes(type) || !token) throw expired()
    const session = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) => followLink(options, tx, type, token))
    target = `${redirect.split('#')[0]}#${fragment({
      access_token: session.access_token,
      expires_at: session.expires_at,
      expires_in: session.expires_in,
      refresh_token: session.refresh_token,
      token_type: session.token_type,
      type,
    })}`
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    const code = String(error.body.error_code ?? 'otp_expired')
    const description = String(error.body.msg ?? 'Email link is invalid or has expired')
    target = `${redirect.split('#')[0]}#${fragment({ error: 'access_denied', error_code: code, error_description: description })}`
  }
  res.writeHead(303, { Location: target, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end()
}

/** POST /auth/v1/verify {type, token_hash}: auth-js's verifyOtp with the mailed token; answers the session. */
export async function verifyPost({ db, options }: AuthContext, { req, res }: ApiRequest) {
  const body = ((await readJson(req, 'auth')) ?? {}) as Record<string, unknown>
  if (typeof body !== 'object' || Array.isArray(body)) throw authError(400, 'validation_failed', 'body must be a JSON object')
  const type = body.type as LinkType
  const token = body.token_hash
  if (!LINK_TYPES.includes(type)) throw authError(400, 'validation_failed', 'Verify requires a verification type')
  if (typeof token !== 'string' || token === '') throw authError(400, 'validation_failed', 'Verify requires a token or a token hash')
  const session = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) => followLink(options, tx, type, token))
  sendJson(res, 200, session, API_VERSION)
}
