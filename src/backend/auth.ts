import { isAuthError, type AuthError, type Session } from '@supabase/supabase-js'
import { supabase } from './client.ts'
import { SIGNUP_RATE_LIMITED } from '../lib/error-message.ts'
import { normaliseUsername, PASSWORD_MESSAGE, PASSWORD_MIN, usernameProblem } from '../lib/profile-rules.ts'

export type AuthOutcome =
  | { ok: true; signedIn: boolean }
  | { ok: false; kind: 'signup-disabled' | 'unconfirmed' | 'error'; message: string | undefined }

/** Where links in auth mails lead back to: inside the app, whose client picks the session up from the link. */
const appUrl = (path = '') => `${window.location.origin}/app${path}`

/**
 * Where a sign-up's confirmation link leads back to: the app page it was made on, with its query
 * (a project invite link's token stays in it, so the creator lands back on the invite), or /app.
 */
const returnUrl = () => {
  const { origin, pathname = '', search = '' } = window.location
  return pathname === '/app' || pathname.startsWith('/app/') ? `${origin}${pathname}${search}` : appUrl()
}

/** The reset page a password-reset mail's link opens. */
export const RESET_PASSWORD_PATH = '/reset-password'

/** A second sign-up of one address within a minute: its confirmation mail was just sent. */
export const SIGNUP_MAIL_TOO_SOON =
  'A confirmation mail was sent to this address just now. Please wait a minute, or open the link in that mail.'

/** GoTrue's refusal of a password sign-in whose e-mail was never confirmed. */
export const EMAIL_NOT_CONFIRMED = 'Confirm your e-mail first: open the link in the mail we sent you, or send it again.'

// GoTrue reports a disabled e-mail provider as 'email_provider_disabled' ("Email signups are
// disabled") and closed sign-ups as 'signup_disabled'; older servers only send the text.
const SIGNUP_DISABLED_CODES = new Set(['email_provider_disabled', 'signup_disabled'])
const SIGNUP_DISABLED_TEXT = /(email )?sign ?ups? (are )?(disabled|not allowed)/i

export function isSignupDisabled(error: Pick<AuthError, 'message'> & { code?: string }): boolean {
  return (error.code !== undefined && SIGNUP_DISABLED_CODES.has(error.code)) || SIGNUP_DISABLED_TEXT.test(error.message ?? '')
}

/**
 * The server's own words, when the server answered with an error; undefined when it never did
 * (network down, a proxy's 5xx page), so the UI falls back to its generic messages.
 */
export const serverMessage = (error: unknown): string | undefined => {
  if (!isAuthError(error) || error.status === undefined || error.status < 400 || error.status >= 500) return undefined
  const text = error.message?.trim()
  return text && text !== '{}' ? text : undefined
}

export async function signIn(email: string, password: string): Promise<AuthOutcome> {
  try {
    const { data, error } = await supabase().auth.signInWithPassword({ email, password })
    if (error?.code === 'email_not_confirmed') return { ok: false, kind: 'unconfirmed', message: EMAIL_NOT_CONFIRMED }
    if (error) return { ok: false, kind: 'error', message: serverMessage(error) }
    return { ok: true, signedIn: data.session !== null }
  } catch (error) {
    return { ok: false, kind: 'error', message: serverMessage(error) }
  }
}

/** Why the server would refuse this name at sign-up (the rename's words), or null. */
async function serverUsernameProblem(username: string): Promise<string | null> {
  const { data, error } = await supabase().rpc('username_problem', { p_name: username })
  return error ? null : (data ?? null)
}

/**
 * The server's refusal of this address, asked first: where sign-ups are not confirmed by mail,
 * GoTrue answers a registered address with 422, which the browser logs as a failed request although
 * the form handles it. Null where sign-up tells nothing (confirmations on) or the server cannot say.
 */
async function serverEmailProblem(email: string): Promise<string | null> {
  const { data, error } = await supabase().rpc('signup_email_problem', { p_email: email })
  return error ? null : (data ?? null)
}

export async function signUp(username: string, email: string, password: string): Promise<AuthOutcome> {
  const name = normaliseUsername(username)
  const problem = usernameProblem(name)
  if (problem) return { ok: false, kind: 'error', message: problem }
  if (password.length < PASSWORD_MIN) return { ok: false, kind: 'error', message: PASSWORD_MESSAGE }
  try {
    const taken = await serverUsernameProblem(name)
    if (taken) return { ok: false, kind: 'error', message: taken }
    const registered = await serverEmailProblem(email)
    if (registered) return { ok: false, kind: 'error', message: registered }
    const { data, error } = await supabase().auth.signUp({
      email,
      password,
      options: { data: { username: name }, emailRedirectTo: returnUrl() },
    })
    if (error) {
      // One confirmation mail per address a minute (429 over_email_send_rate_limit).
      if (error.code === 'over_email_send_rate_limit') return { ok: false, kind: 'error', message: SIGNUP_MAIL_TOO_SOON }
      // GoTrue's per-address sign-up limit (429 over_request_rate_limit): say what it means.
      if (error.code === 'over_request_rate_limit' || error.status === 429)
        return { ok: false, kind: 'error', message: SIGNUP_RATE_LIMITED }
      // GoTrue answers a refusing trigger with a bare 500: the server's rule says why.
      const refusal = error.status === 500 ? await serverUsernameProblem(name) : null
      return { ok: false, kind: isSignupDisabled(error) ? 'signup-disabled' : 'error', message: refusal ?? serverMessage(error) }
    }
    // A hosted project with e-mail confirmation answers without a session until the link is opened.
    return { ok: true, signedIn: data.session !== null }
  } catch (error) {
    return { ok: false, kind: 'error', message: serverMessage(error) }
  }
}

export type MailOutcome = { ok: true } | { ok: false; message: string }

/** GoTrue's answers around sending mail, in the app's words. */
function mailOutcome(error: unknown): MailOutcome {
  if (!error) return { ok: true }
  if (isAuthError(error) && error.code === 'over_email_send_rate_limit')
    return { ok: false, message: `A mail was sent just now. ${error.message.replace(/^For security purposes, /, '').replace(/^y/, 'Y')}` }
  if (isAuthError(error) && (error.code === 'over_request_rate_limit' || error.status === 429))
    return { ok: false, message: 'Too many mails were asked for from this connection. Please try again later.' }
  return { ok: false, message: serverMessage(error) ?? 'The mail could not be sent. Please try again.' }
}

/** Sends the sign-up confirmation link again. The answer is the same whether or not the address has an account. */
export async function resendConfirmation(email: string): Promise<MailOutcome> {
  try {
    const { error } = await supabase().auth.resend({ type: 'signup', email: email.trim(), options: { emailRedirectTo: returnUrl() } })
    return mailOutcome(error)
  } catch (error) {
    return mailOutcome(error)
  }
}

/** "Forgot password?": mails a reset link that opens the app's reset page. Says nothing about whether the address has an account. */
export async function requestPasswordReset(email: string): Promise<MailOutcome> {
  try {
    const { error } = await supabase().auth.resetPasswordForEmail(email.trim(), { redirectTo: appUrl(RESET_PASSWORD_PATH) })
    return mailOutcome(error)
  } catch (error) {
    return mailOutcome(error)
  }
}

/** Whether this tab holds a session opened by a password-reset link (its JWT's amr says 'recovery'). */
export async function hasRecoverySession(): Promise<boolean> {
  const { data } = await supabase().auth.getSession()
  const token = data.session?.access_token
  if (!token) return false
  try {
    const payload = token.split('.')[1] ?? ''
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { amr?: { method?: string }[] }
    return claims.amr?.some((a) => a.method === 'recovery') ?? false
  } catch {
    return false
  }
}

/** Sets the new password in a recovery session (the link stands in for the old password). */
export async function setRecoveredPassword(password: string): Promise<MailOutcome> {
  if (password.length < PASSWORD_MIN) return { ok: false, message: PASSWORD_MESSAGE }
  try {
    const { error } = await supabase().auth.updateUser({ password })
    if (!error) return { ok: true }
    if (error.code === 'same_password') return { ok: false, message: 'Choose a password different from the old one.' }
    return { ok: false, message: serverMessage(error) ?? 'The password could not be set. Please try again.' }
  } catch (error) {
    return { ok: false, message: serverMessage(error) ?? 'The password could not be set. Please try again.' }
  }
}

export async function signOut(): Promise<{ ok: boolean; message?: string }> {
  const { error } = await supabase().auth.signOut()
  return error ? { ok: false, message: error.message } : { ok: true }
}

/** The JWT's assurance level ('aal1' after a password, 'aal2' after a second factor). */
export function sessionAal(accessToken: string): string | null {
  try {
    const payload = accessToken.split('.')[1] ?? ''
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { aal?: unknown }
    return typeof json.aal === 'string' ? json.aal : null
  } catch {
    return null
  }
}

/**
 * The verified TOTP factor this session still has to prove (the account has two-factor on and the
 * session is only aal1), or null when the session is complete.
 */
export function pendingTotpFactor(session: Pick<Session, 'access_token' | 'user'>): string | null {
  const factor = session.user.factors?.find((f) => f.factor_type === 'totp' && f.status === 'verified')
  return factor && sessionAal(session.access_token) !== 'aal2' ? factor.id : null
}

/** Proves the second factor of a half-signed-in session (raises it to aal2). */
export async function verifySignInCode(factorId: string, code: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const { error } = await supabase().auth.mfa.challengeAndVerify({ factorId, code: code.trim() })
  if (!error) return { ok: true }
  return {
    ok: false,
    message:
      error.code === 'mfa_verification_failed'
        ? 'That code is not correct. Use the current 6-digit code from your authenticator app.'
        : error.message,
  }
}

/** Signs in with e-mail and password and says whether a second-factor code is still needed. */
export async function signInNeedsCode(): Promise<string | null> {
  const { data } = await supabase().auth.getSession()
  return data.session ? pendingTotpFactor(data.session) : null
}
