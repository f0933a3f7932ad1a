import bcrypt from 'bcryptjs'
import { runAs } from '../core/caller.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { newLinkToken, safeRedirect, verifyLink } from './email-links.ts'
import { confirmEmailChangeMail, emailChangeNoticeMail } from './mail-templates.ts'
import { deliver, type MailMessage } from './mailer.ts'
import { liveSession } from './sessions.ts'
import { AUTH_ADMIN, EMAIL, USER_COLUMNS, userJson, type UserRow } from './users.ts'

/** The app's password rule (GoTrue's GOTRUE_PASSWORD_MIN_LENGTH). */
export const PASSWORD_MIN_LENGTH = 8

/** How long after its reset link a recovery session may set a password without the current one. */
const RECOVERY_WINDOW_SECONDS = 3600

/**
 * PUT /auth/v1/user {password?, email?, current_password?, data?}: as GoTrue with
 * GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD on. A new password or e-mail needs the
 * current password (re-authentication), and an aal2 session when the account has a verified MFA
 * factor; a new password ends every other session of the account.
 *
 * A recovery session (opened by a password-reset link within the last hour) may set a new password
 * without the current one: the link proved the mailbox. An e-mail change takes effect only once
 * the new address follows the link mailed to it (GoTrue's MAILER_SECURE_EMAIL_CHANGE, with a
 * notice to the old address instead of a second link); until then the user answers `new_email`.
 */
export async function updateUser(context: AuthContext, { req, res, url }: ApiRequest) {
  const { db, options } = context
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

  const mails: MailMessage[] = []
  const row = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1 for update`, [session.sub])).rows[0]
    if (!user) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    const newEmail = typeof email === 'string' ? email.trim().toLowerCase() : undefined
    const sensitive = typeof password === 'string' || (newEmail !== undefined && newEmail !== user.email)
    const recovering = session.method === 'recovery' && session.age < RECOVERY_WINDOW_SECONDS && newEmail === undefined
    if (sensitive) {
      if (recovering) {
        // The reset link stands in for the current password.
      } else if (typeof current !== 'string' || current === '')
        throw authError(400, 'current_password_required', 'Current password required to update the password or e-mail')
      else if (!(await bcrypt.compare(current, user.encrypted_password)))
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
      // The reset link is spent: the next change asks for the password just set.
      await tx.query("update auth.sessions set method = 'password' where id = $1 and method = 'recovery'", [session.sessionId])
    }
    if (newEmail !== undefined && newEmail !== user.email) {
      // Only a confirmed account owns an address; an unconfirmed sign-up holding it gives way when this change is confirmed.
      const taken = await tx.query('select 1 from auth.users where email = $1 and email_confirmed_at is not null', [newEmail])
      if (taken.rows.length) throw authError(422, 'email_exists', 'A user with this email address has already been registered')
      context.mailFrequency.take(user.email, 'email_change')
      const link = newLinkToken()
      await tx.query(
        `update auth.users set email_change = $2, email_change_token_new = $3, email_change_sent_at = now(), updated_at = now()
          where id = $1`,
        [user.id, newEmail, link.hash],
      )
      const redirect = safeRedirect(options, url.searchParams.get('redirect_to'))
      mails.push(
        confirmEmailChangeMail(newEmail, user.email, verifyLink(options, link.token, 'email_change', redirect)),
        emailChangeNoticeMail(user.email, newEmail),
      )
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
  for (const mail of mails) deliver(options.sendMail, mail)
  sendJson(res, 200, userJson(row), API_VERSION)
}
