import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailCatcher, type CaughtMail, type MailCatcher } from '../../supabase/local/mail-catcher/catcher.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, sql, supabaseClient, type TestServer } from './support/local-backend.ts'

// Accounts prove their e-mail, attacked and used as an outsider would: supabase-js and raw HTTP
// against the local backend with confirmations on, its mail going over SMTP to a real mail catcher.

const FREQUENCY_SECONDS = 2
let n = 0
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`

describe.each(DATABASES)('e-mail proof on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  let catcher: MailCatcher
  beforeAll(async () => {
    catcher = await startMailCatcher()
    ;({ server, stop } = await serverOn(database, {
      emailConfirm: true,
      smtpUrl: catcher.smtpUrl,
      adminEmails: ['chief@example.com', 'deputy@example.com', 'owner-boss@example.com'],
      mailFrequencySeconds: FREQUENCY_SECONDS,
      mailRateLimit: { max: 10, seconds: 3600 },
    }))
  }, 120_000)
  afterAll(async () => {
    await stop?.()
    await catcher?.close()
  })

  /** The mails to `to` so far, newest first, once at least `count` arrived. */
  async function mailsTo(to: string, count = 1): Promise<CaughtMail[]> {
    for (let i = 0; i < 200; i++) {
      const mails = catcher.messages().filter((m) => m.to.includes(to))
      if (mails.length >= count) return mails
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`no mail to ${to}`)
  }
  /** The one link in a mail that goes through /auth/v1/verify. */
  const verifyLinkIn = (mail: CaughtMail) => mail.links.find((l) => l.includes('/auth/v1/verify'))!
  /** Follows a mailed link as a browser would, and reads what the fragment of its redirect carries. */
  async function follow(link: string) {
    const response = await fetch(link, { redirect: 'manual' })
    expect(response.status).toBe(303)
    const location = new URL(response.headers.get('location')!)
    return { location, params: new URLSearchParams(location.hash.slice(1)) }
  }
  const isAdmin = async (email: string) =>
    (await sql(server, 'select 1 from public.administrators a join auth.users u on u.id = a.user_id where u.email = $1', [email])).length >
    0
  const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000))

  it('sign-up mails a confirmation; sign-in is refused until its link is followed; the link works once', async () => {
    const email = address('new')
    const client = supabaseClient(server)
    const signedUp = await client.auth.signUp({ email, password: 'first-pass-1', options: { emailRedirectTo: `${server.url}/welcome` } })
    expect(signedUp.error).toBeNull()
    expect(signedUp.data.session).toBeNull()
    expect(signedUp.data.user?.email_confirmed_at).toBeNull()
    expect(signedUp.data.user?.confirmation_sent_at).toBeTruthy()

    const refused = await client.auth.signInWithPassword({ email, password: 'first-pass-1' })
    expect(refused.error?.code).toBe('email_not_confirmed')
    expect(refused.error?.message).toBe('Email not confirmed')
    // A wrong password still says only that: nothing about the account's state.
    expect((await client.auth.signInWithPassword({ email, password: 'wrong-pass-1' })).error?.code).toBe('invalid_credentials')

    const [mail] = await mailsTo(email)
    expect(mail!.subject).toBe('Confirm your CUBE Music account')
    expect(mail!.html).toContain('Confirm e-mail')
    expect(mail!.html).not.toMatch(/<img|<script|https?:\/\/(?!127\.0\.0\.1)/)
    const link = verifyLinkIn(mail!)
    expect(mail!.text).toContain(link)
    const { location, params } = await follow(link)
    expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/welcome`)
    expect(params.get('type')).toBe('signup')
    const user = await api(server, '/auth/v1/user', { token: params.get('access_token')! })
    expect(user.json.email_confirmed_at).toBeTruthy()
    expect((await client.auth.signInWithPassword({ email, password: 'first-pass-1' })).error).toBeNull()
    // With confirmations on, nothing says the address is registered: sign-up answers a look-alike.
    expect(await supabaseClient(server).rpc('signup_email_problem', { p_email: email })).toMatchObject({ status: 200, data: null })

    const again = await follow(link)
    expect(again.params.get('error_code')).toBe('otp_expired')
    expect(again.params.get('access_token')).toBeNull()
  })

  it('a link expires, and never sends its session to another origin', async () => {
    const email = address('late')
    const signedUp = await api(server, '/auth/v1/signup?redirect_to=https%3A%2F%2Fevil.example%2Fsteal', {
      body: { email, password: 'late-pass-1' },
    })
    expect(signedUp.status).toBe(200)
    const link = verifyLinkIn((await mailsTo(email))[0]!)
    expect(new URL(link).searchParams.get('redirect_to')).toBe(server.url)
    // A link asked for another redirect on the way: the site it is.
    const tampered = new URL(link)
    tampered.searchParams.set('redirect_to', 'https://evil.example/steal')
    await sql(server, "update auth.users set confirmation_sent_at = now() - interval '2 hours' where email = $1", [email])
    const expired = await follow(tampered.href)
    expect(expired.location.origin).toBe(server.url)
    expect(expired.params.get('error_code')).toBe('otp_expired')
    expect(expired.params.get('error_description')).toBe('Email link is invalid or has expired')
    // verifyOtp's POST form refuses the same way.
    const posted = await api(server, '/auth/v1/verify', { body: { type: 'signup', token_hash: new URL(link).searchParams.get('token') } })
    expect(posted.status).toBe(403)
    expect(posted.json.error_code).toBe('otp_expired')
  })

  it('resend mails a fresh link (the old one stops working), is rate-limited, and says nothing about unknown addresses', async () => {
    const email = address('resend')
    const client = supabaseClient(server)
    await client.auth.signUp({ email, password: 'resend-pass-1' })
    const first = verifyLinkIn((await mailsTo(email))[0]!)
    // Within the mail frequency: GoTrue's 429, for a registered address and an unknown one alike.
    const tooSoon = await client.auth.resend({ type: 'signup', email })
    expect(tooSoon.error?.code).toBe('over_email_send_rate_limit')
    await wait(FREQUENCY_SECONDS)
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull()
    const second = verifyLinkIn((await mailsTo(email, 2))[0]!)
    expect(second).not.toBe(first)
    expect((await follow(first)).params.get('error_code')).toBe('otp_expired')
    expect((await follow(second)).params.get('type')).toBe('signup')

    const unknown = address('nobody')
    const answers = await Promise.all([
      api(server, '/auth/v1/resend', { body: { type: 'signup', email: unknown } }),
      api(server, '/auth/v1/resend', { body: { type: 'signup', email: unknown } }),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429])
    expect(catcher.messages().some((m) => m.to.includes(unknown))).toBe(false)
    // Per client address: an eleventh request within the hour is refused whatever it asks for.
    const from = '127.0.0.77'
    for (let i = 0; i < 10; i++)
      expect((await api(server, '/auth/v1/resend', { from, body: { type: 'signup', email: address('x') } })).status).toBe(200)
    const limited = await api(server, '/auth/v1/resend', { from, body: { type: 'signup', email: address('x') } })
    expect(limited.status).toBe(429)
    expect(limited.json.error_code).toBe('over_request_rate_limit')
  })

  it('"Forgot password?": recover answers alike for any address, its link opens a recovery session that sets a new password', async () => {
    const email = address('forgot')
    await api(server, '/auth/v1/signup', { body: { email, password: 'forgot-pass-1' } })
    await follow(verifyLinkIn((await mailsTo(email))[0]!))
    const client = supabaseClient(server)
    const unknown = address('stranger')
    const known = await api(server, `/auth/v1/recover?redirect_to=${encodeURIComponent(`${server.url}/reset-password`)}`, {
      body: { email },
    })
    const stranger = await api(server, `/auth/v1/recover?redirect_to=${encodeURIComponent(`${server.url}/reset-password`)}`, {
      body: { email: unknown },
    })
    expect([known.status, known.text]).toEqual([stranger.status, stranger.text])
    expect(known.status).toBe(200)
    // The same again within the frequency is refused alike too.
    const [knownAgain, strangerAgain] = await Promise.all([
      client.auth.resetPasswordForEmail(email),
      client.auth.resetPasswordForEmail(unknown),
    ])
    expect(knownAgain.error?.code).toBe('over_email_send_rate_limit')
    expect(strangerAgain.error?.code).toBe('over_email_send_rate_limit')

    const mails = await mailsTo(email, 2)
    expect(mails[0]!.subject).toBe('Reset your CUBE Music password')
    expect(catcher.messages().some((m) => m.to.includes(unknown))).toBe(false)
    const { location, params } = await follow(verifyLinkIn(mails[0]!))
    expect(location.pathname).toBe('/reset-password')
    expect(params.get('type')).toBe('recovery')
    const session = { access_token: params.get('access_token')!, refresh_token: params.get('refresh_token')! }
    const recovering = supabaseClient(server)
    expect((await recovering.auth.setSession(session)).error).toBeNull()
    // The reset link stands in for the current password, once.
    expect((await recovering.auth.updateUser({ password: 'forgot-pass-2' })).error).toBeNull()
    expect((await recovering.auth.updateUser({ password: 'forgot-pass-3' })).error?.code).toBe('current_password_required')
    expect((await client.auth.signInWithPassword({ email, password: 'forgot-pass-1' })).error?.code).toBe('invalid_credentials')
    expect((await client.auth.signInWithPassword({ email, password: 'forgot-pass-2' })).error).toBeNull()
    // An ordinary session still needs the current password.
    expect((await client.auth.updateUser({ password: 'forgot-pass-4' })).error?.code).toBe('current_password_required')
  })

  it('an e-mail change takes effect only once the new address confirms it, and the old address is told', async () => {
    const email = address('before')
    const next = address('after')
    await api(server, '/auth/v1/signup', { body: { email, password: 'change-pass-1' } })
    await follow(verifyLinkIn((await mailsTo(email))[0]!))
    const client = supabaseClient(server)
    await client.auth.signInWithPassword({ email, password: 'change-pass-1' })
    const asked = await client.auth.updateUser({ email: next, current_password: 'change-pass-1' })
    expect(asked.error).toBeNull()
    expect(asked.data.user?.email).toBe(email)
    expect(asked.data.user?.new_email).toBe(next)

    const notice = (await mailsTo(email, 2))[0]!
    expect(notice.subject).toBe('Your CUBE Music e-mail is about to change')
    expect(notice.text).toContain(next)
    expect(verifyLinkIn(notice)).toBeUndefined()
    const confirmation = (await mailsTo(next))[0]!
    expect(confirmation.subject).toBe('Confirm your new e-mail for CUBE Music')
    expect((await supabaseClient(server).auth.signInWithPassword({ email: next, password: 'change-pass-1' })).error?.code).toBe(
      'invalid_credentials',
    )

    const { params } = await follow(verifyLinkIn(confirmation))
    expect(params.get('type')).toBe('email_change')
    expect((await supabaseClient(server).auth.signInWithPassword({ email: next, password: 'change-pass-1' })).error).toBeNull()
    expect((await supabaseClient(server).auth.signInWithPassword({ email, password: 'change-pass-1' })).error?.code).toBe(
      'invalid_credentials',
    )
  })

  it('LOCAL_ADMIN_EMAILS grants administrator only once the address is confirmed, by sign-up or by e-mail change', async () => {
    await api(server, '/auth/v1/signup', { body: { email: 'chief@example.com', password: 'chief-pass-1' } })
    expect(await isAdmin('chief@example.com')).toBe(false)
    await follow(verifyLinkIn((await mailsTo('chief@example.com'))[0]!))
    expect(await isAdmin('chief@example.com')).toBe(true)

    const email = address('climber')
    await api(server, '/auth/v1/signup', { body: { email, password: 'climb-pass-1' } })
    await follow(verifyLinkIn((await mailsTo(email))[0]!))
    const client = supabaseClient(server)
    await client.auth.signInWithPassword({ email, password: 'climb-pass-1' })
    expect((await client.auth.updateUser({ email: 'deputy@example.com', current_password: 'climb-pass-1' })).error).toBeNull()
    const { data } = await client.auth.getUser()
    expect(await isAdmin(email)).toBe(false)
    expect(await isAdmin('deputy@example.com')).toBe(false)
    await follow(verifyLinkIn((await mailsTo('deputy@example.com'))[0]!))
    expect((await sql(server, 'select 1 from public.administrators where user_id = $1', [data.user!.id])).length).toBe(1)
  })

  it('an unconfirmed squatter cannot keep the owner out: the owner signs up, confirms, and is the administrator', async () => {
    const boss = 'owner-boss@example.com'
    // The squatter signs up first, and asks for the address through an e-mail change too.
    await api(server, '/auth/v1/signup', {
      from: '127.0.0.66',
      body: { email: boss, password: 'squatter-pass', data: { username: 'squatter' } },
    })
    const squatterMail = (await mailsTo(boss))[0]!
    const rival = address('rival')
    await api(server, '/auth/v1/signup', { from: '127.0.0.66', body: { email: rival, password: 'rival-pass-1' } })
    await follow(verifyLinkIn((await mailsTo(rival))[0]!))
    const squatter = supabaseClient(server)
    await squatter.auth.signInWithPassword({ email: rival, password: 'rival-pass-1' })
    expect((await squatter.auth.updateUser({ email: boss, current_password: 'rival-pass-1' })).error).toBeNull()
    expect(await isAdmin(boss)).toBe(false)

    await wait(FREQUENCY_SECONDS)
    const owner = supabaseClient(server)
    const signedUp = await owner.auth.signUp({ email: boss, password: 'owner-pass-1' })
    expect(signedUp.error).toBeNull()
    const ownerMail = (await mailsTo(boss, 3)).find((m) => m.subject === 'Confirm your CUBE Music account')!
    expect(ownerMail.id).not.toBe(squatterMail.id)
    // The squatter's own sign-up link died with its replaced account.
    expect((await follow(verifyLinkIn(squatterMail))).params.get('error_code')).toBe('otp_expired')
    expect((await follow(verifyLinkIn(ownerMail))).params.get('type')).toBe('signup')
    expect(await isAdmin(boss)).toBe(true)
    expect((await owner.auth.signInWithPassword({ email: boss, password: 'owner-pass-1' })).error).toBeNull()
    expect((await owner.auth.signInWithPassword({ email: boss, password: 'squatter-pass' })).error?.code).toBe('invalid_credentials')
    // The squatter's pending change to the address is gone: its link can no longer move it there.
    const change = (await mailsTo(boss, 3)).find((m) => m.subject === 'Confirm your new e-mail for CUBE Music')!
    expect((await follow(verifyLinkIn(change))).params.get('error_code')).toBe('otp_expired')
    expect((await sql(server, 'select email from auth.users where email = $1', [rival])).length).toBe(1)

    // Signing up the confirmed address now: the answer looks like any new sign-up, and nothing is mailed.
    await wait(FREQUENCY_SECONDS)
    const before = catcher.messages().length
    const again = await api(server, '/auth/v1/signup', { body: { email: boss, password: 'another-pass-1' } })
    const fresh = await api(server, '/auth/v1/signup', { body: { email: address('fresh'), password: 'another-pass-1' } })
    expect(again.status).toBe(200)
    expect(Object.keys(again.json).sort()).toEqual(Object.keys(fresh.json).sort())
    expect(again.json.access_token).toBeUndefined()
    await mailsTo(fresh.json.email)
    expect(catcher.messages().filter((m) => m.to.includes(boss)).length).toBe(3)
    expect(catcher.messages().length).toBe(before + 1)
  })
})
