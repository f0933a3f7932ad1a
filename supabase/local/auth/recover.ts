import { runAs } from '../core/caller.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { newLinkToken, safeRedirect, verifyLink, type LinkType } from './email-links.ts'
import { confirmEmailChangeMail, confirmSignupMail, resetPasswordMail } from './mail-templates.ts'
import { deliver } from './mailer.ts'
import { checkRateLimit } from './rate-limit.ts'
import { AUTH_ADMIN, EMAIL } from './users.ts'

/** The e-mail of a recover/resend body, checked as GoTrue checks it. */
async function requestedEmail(req: ApiRequest['req']): Promise<{ email: string; body: Record<string, unknown> }> {
  const body = ((await readJson(req, 'auth')) ?? {}) as Record<string, unknown>
  if (typeof body !== 'object' || Array.isArray(body)) throw authError(400, 'validation_failed', 'body must be a JSON object')
  if (typeof body.email !== 'string' || !EMAIL.test(body.email.trim()))
    throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
  return { email: body.email.trim().toLowerCase(), body }
}

/**
 * POST /auth/v1/recover {email} (auth-js's resetPasswordForEmail): mails a password-reset link
 * when the address has an account. The answer is the same `{}` either way, and the mail leaves
 * after the answer (mailer.ts's deliver), so neither the answer nor its timing says whether the
 * address is registered; the per-address frequency counts addresses, not accounts.
 */
export async function recover(context: AuthContext, { req, res, url }: ApiRequest) {
  const { db, options } = context
  checkRateLimit(context.mailLimiter, req)
  const { email } = await requestedEmail(req)
  context.mailFrequency.take(email, 'recovery')
  const link = newLinkToken()
  const found = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) =>
    tx.query('update auth.users set recovery_token = $2, recovery_sent_at = now() where email = $1 returning id', [email, link.hash]),
  )
  if (found.rows.length) {
    const redirect = safeRedirect(options, url.searchParams.get('redirect_to'))
    deliver(options.sendMail, resetPasswordMail(email, verifyLink(options, link.token, 'recovery', redirect)))
  }
  sendJson(res, 200, {}, API_VERSION)
}

/**
 * POST /auth/v1/resend {email, type: signup | email_change}: a fresh link (the previous one stops
 * working) for a sign-up that is still unconfirmed, or for a pending e-mail change (sent to the new
 * address; `email` is the account's current one, as auth-js sends it). Always `{}`, as recover.
 */
export async function resend(context: AuthContext, { req, res, url }: ApiRequest) {
  const { db, options } = context
  checkRateLimit(context.mailLimiter, req)
  const { email, body } = await requestedEmail(req)
  const type = body.type as LinkType
  if (type !== 'signup' && type !== 'email_change')
    throw authError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change')
  context.mailFrequency.take(email, type)
  const link = newLinkToken()
  const redirect = safeRedirect(options, url.searchParams.get('redirect_to'))
  const sql =
    type === 'signup'
      ? `update auth.users set confirmation_token = $2, confirmation_sent_at = now()
          where email = $1 and email_confirmed_at is null returning email as to, null::text as from`
      : `update auth.users set email_change_token_new = $2, email_change_sent_at = now()
          where email = $1 and email_change is not null returning email_change as to, email as from`
  const { rows } = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) =>
    tx.query<{ to: string; from: string | null }>(sql, [email, link.hash]),
  )
  const found = rows[0]
  if (found) {
    const href = verifyLink(options, link.token, type, redirect)
    deliver(options.sendMail, type === 'signup' ? confirmSignupMail(found.to, href) : confirmEmailChangeMail(found.to, found.from!, href))
  }
  sendJson(res, 200, {}, API_VERSION)
}
