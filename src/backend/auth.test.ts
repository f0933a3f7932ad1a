import { AuthApiError } from '@supabase/supabase-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SIGNUP_RATE_LIMITED } from '../lib/error-message.ts'
import {
  EMAIL_NOT_CONFIRMED,
  hasRecoverySession,
  requestPasswordReset,
  resendConfirmation,
  signIn,
  signUp,
  SIGNUP_MAIL_TOO_SOON,
} from './auth.ts'

// Sign-ups are rate-limited per client address (GoTrue's 429 over_request_rate_limit,
// "Request rate limit reached"). The sign-up form shows what that means, in words.

const authSignUp = vi.fn()
const authSignIn = vi.fn()
const authResend = vi.fn()
const authRecover = vi.fn()
const authSession = vi.fn()
vi.mock('./client.ts', () => ({
  supabase: () => ({
    rpc: async () => ({ data: null, error: null }),
    auth: {
      signUp: authSignUp,
      signInWithPassword: authSignIn,
      resend: authResend,
      resetPasswordForEmail: authRecover,
      getSession: authSession,
    },
  }),
}))

const jwt = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.y`

afterEach(() => vi.unstubAllGlobals())

describe('signUp', () => {
  it('turns the per-address sign-up limit into words', async () => {
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080' } })
    authSignUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit'),
    })
    expect(await signUp('listener_one', 'one@example.com', 'a-long-password')).toEqual({
      ok: false,
      kind: 'error',
      message: SIGNUP_RATE_LIMITED,
    })
    expect(SIGNUP_RATE_LIMITED).toMatch(/Too many accounts were created from your network in the last hour/)
  })
})

describe('e-mail proof', () => {
  it('sends links back into the app: sign-up and resend to /app, the reset mail to /app/reset-password', async () => {
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080' } })
    authSignUp.mockResolvedValueOnce({ data: { user: {}, session: null }, error: null })
    expect(await signUp('listener_two', 'two@example.com', 'a-long-password')).toEqual({ ok: true, signedIn: false })
    expect(authSignUp.mock.lastCall![0].options.emailRedirectTo).toBe('http://127.0.0.1:8080/app')
    authResend.mockResolvedValueOnce({ data: {}, error: null })
    expect(await resendConfirmation(' two@example.com ')).toEqual({ ok: true })
    expect(authResend).toHaveBeenLastCalledWith({
      type: 'signup',
      email: 'two@example.com',
      options: { emailRedirectTo: 'http://127.0.0.1:8080/app' },
    })
    authRecover.mockResolvedValueOnce({ data: {}, error: null })
    expect(await requestPasswordReset('two@example.com')).toEqual({ ok: true })
    expect(authRecover).toHaveBeenLastCalledWith('two@example.com', { redirectTo: 'http://127.0.0.1:8080/app/reset-password' })
  })

  it('brings a sign-up made on an invite link back to that invite: the confirmation link keeps the page and its token', async () => {
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080', pathname: '/app/studio', search: '?invite=tok-7' } })
    authSignUp.mockResolvedValueOnce({ data: { user: {}, session: null }, error: null })
    expect(await signUp('listener_four', 'four@example.com', 'a-long-password')).toEqual({ ok: true, signedIn: false })
    expect(authSignUp.mock.lastCall![0].options.emailRedirectTo).toBe('http://127.0.0.1:8080/app/studio?invite=tok-7')
    authResend.mockResolvedValueOnce({ data: {}, error: null })
    await resendConfirmation('four@example.com')
    expect(authResend.mock.lastCall![0].options.emailRedirectTo).toBe('http://127.0.0.1:8080/app/studio?invite=tok-7')
    // Off the app (the landing page), the link opens the app.
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080', pathname: '/', search: '?x=1' } })
    authSignUp.mockResolvedValueOnce({ data: { user: {}, session: null }, error: null })
    await signUp('listener_five', 'five@example.com', 'a-long-password')
    expect(authSignUp.mock.lastCall![0].options.emailRedirectTo).toBe('http://127.0.0.1:8080/app')
  })

  it("says what GoTrue's refusals mean: unconfirmed sign-in, a mail sent just now, too many requests", async () => {
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080' } })
    authSignIn.mockResolvedValueOnce({
      data: { session: null },
      error: new AuthApiError('Email not confirmed', 400, 'email_not_confirmed'),
    })
    expect(await signIn('late@example.com', 'a-long-password')).toEqual({ ok: false, kind: 'unconfirmed', message: EMAIL_NOT_CONFIRMED })
    const tooSoon = new AuthApiError(
      'For security purposes, you can only request this after 41 seconds.',
      429,
      'over_email_send_rate_limit',
    )
    authSignUp.mockResolvedValueOnce({ data: { user: null, session: null }, error: tooSoon })
    expect(await signUp('listener_three', 'three@example.com', 'a-long-password')).toEqual({
      ok: false,
      kind: 'error',
      message: SIGNUP_MAIL_TOO_SOON,
    })
    authRecover.mockResolvedValueOnce({ data: null, error: tooSoon })
    expect(await requestPasswordReset('three@example.com')).toEqual({
      ok: false,
      message: 'A mail was sent just now. You can only request this after 41 seconds.',
    })
    authResend.mockResolvedValueOnce({ data: {}, error: new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit') })
    expect(await resendConfirmation('three@example.com')).toEqual({
      ok: false,
      message: 'Too many mails were asked for from this connection. Please try again later.',
    })
  })

  it("knows a reset link's session by its amr, and nothing else as one", async () => {
    authSession.mockResolvedValueOnce({ data: { session: { access_token: jwt({ amr: [{ method: 'recovery', timestamp: 1 }] }) } } })
    expect(await hasRecoverySession()).toBe(true)
    authSession.mockResolvedValueOnce({ data: { session: { access_token: jwt({ amr: [{ method: 'password', timestamp: 1 }] }) } } })
    expect(await hasRecoverySession()).toBe(false)
    authSession.mockResolvedValueOnce({ data: { session: null } })
    expect(await hasRecoverySession()).toBe(false)
  })
})
