import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, supabaseClient, startTestServer, type TestServer } from './support/local-backend.ts'
import { totpQrSvg } from '../../supabase/local/auth/totp-qr-svg.ts'

// Settings' account security through the unchanged supabase-js client, as hosted Supabase Auth
// would answer it: password change (PUT /auth/v1/user) and TOTP two-factor (auth.mfa).

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 60_000)
afterAll(() => server?.close())

async function signedUpClient(email: string, password: string) {
  const client = supabaseClient(server)
  const { error } = await client.auth.signUp({ email, password, options: { data: { username: email.split('@')[0] } } })
  expect(error).toBeNull()
  return client
}

async function signedInClient(email: string, password: string) {
  const client = supabaseClient(server)
  const { error } = await client.auth.signInWithPassword({ email, password })
  expect(error).toBeNull()
  return client
}

/** A code for the time step after the current one (allowed drift), so it was never used before. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })

describe('a registered address at sign-up, without confirmations', () => {
  it("is told by signup_email_problem (200) in the words of sign-up's own 422, and an unknown address gets null", async () => {
    await signedUpClient('held@example.com', 'held-pass-1')
    const visitor = supabaseClient(server)
    const asked = await visitor.rpc('signup_email_problem', { p_email: ' Held@Example.com ' })
    expect(asked).toMatchObject({ status: 200, data: 'User already registered', error: null })
    expect((await visitor.rpc('signup_email_problem', { p_email: 'nobody-here@example.com' })).data).toBeNull()
    const refused = await visitor.auth.signUp({ email: 'held@example.com', password: 'other-pass-1' })
    expect(refused.error).toMatchObject({ status: 422, code: 'user_already_exists', message: asked.data })
  })
})

describe('password change', () => {
  it('needs the current password and 8 characters; then the old one fails, the new one works, other sessions end', async () => {
    const here = await signedUpClient('pwchange@example.com', 'first-pass')
    const elsewhere = await signedInClient('pwchange@example.com', 'first-pass')

    const missing = await here.auth.updateUser({ password: 'second-pass' })
    expect(missing.error?.code).toBe('current_password_required')
    const wrong = await here.auth.updateUser({ password: 'second-pass', current_password: 'not-it' })
    expect(wrong.error?.code).toBe('current_password_mismatch')
    const short = await here.auth.updateUser({ password: 'short', current_password: 'first-pass' })
    expect(short.error?.code).toBe('weak_password')
    const same = await here.auth.updateUser({ password: 'first-pass', current_password: 'first-pass' })
    expect(same.error?.code).toBe('same_password')

    const changed = await here.auth.updateUser({ password: 'second-pass', current_password: 'first-pass' })
    expect(changed.error).toBeNull()
    expect(changed.data.user?.email).toBe('pwchange@example.com')

    const old = await supabaseClient(server).auth.signInWithPassword({ email: 'pwchange@example.com', password: 'first-pass' })
    expect(old.error?.code).toBe('invalid_credentials')
    const fresh = await supabaseClient(server).auth.signInWithPassword({ email: 'pwchange@example.com', password: 'second-pass' })
    expect(fresh.error).toBeNull()

    // This session lives on; the other one is gone (its token no longer reaches the user).
    expect((await here.auth.getUser()).data.user?.email).toBe('pwchange@example.com')
    const other = await elsewhere.auth.getUser()
    expect(other.data.user, JSON.stringify(other.error)).toBeNull()
    // auth-js meets the server's 403 session_not_found by dropping the dead session.
    expect(other.error?.name).toBe('AuthSessionMissingError')
    expect((await elsewhere.auth.getSession()).data.session).toBeNull()
  })

  it('an e-mail change needs the current password and a free address, and waits for the new address', async () => {
    const client = await signedUpClient('mail@example.com', 'mail-pass-1')
    await signedUpClient('taken@example.com', 'taken-pass-1')
    expect((await client.auth.updateUser({ email: 'new@example.com' })).error?.code).toBe('current_password_required')
    expect((await client.auth.updateUser({ email: 'taken@example.com', current_password: 'mail-pass-1' })).error?.code).toBe('email_exists')
    expect((await client.auth.updateUser({ email: 'not-an-email', current_password: 'mail-pass-1' })).error?.code).toBe('validation_failed')
    const moved = await client.auth.updateUser({ email: 'New@Example.com', current_password: 'mail-pass-1' })
    // GoTrue's answer while the new address has not confirmed (tests/backend/auth-email.test.ts follows the link).
    expect(moved.data.user?.email).toBe('mail@example.com')
    expect(moved.data.user?.new_email).toBe('new@example.com')
    expect((await supabaseClient(server).auth.signInWithPassword({ email: 'new@example.com', password: 'mail-pass-1' })).error?.code).toBe(
      'invalid_credentials',
    )
    expect((await supabaseClient(server).auth.signInWithPassword({ email: 'mail@example.com', password: 'mail-pass-1' })).error).toBeNull()
  })
})

describe('TOTP two-factor authentication', () => {
  it(
    'enrol with a QR code, verify a real code (aal2); sign-in then needs the code; a wrong or replayed code is refused; ' +
      'unenrol needs aal2',
    async () => {
      const client = await signedUpClient('totp@example.com', 'totp-pass-1')
      const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
      expect(enrolled.error).toBeNull()
      const factor = enrolled.data!
      expect(factor.type).toBe('totp')
      expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/)
      expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/CUBE%20Music:totp%40example\.com\?secret=/)
      // The QR is the SVG that loads as an image as supabase-js wraps it, unchanged (no '#' or '%'
      // to cut the data URI short): tests/browser/totp-qr.test.ts decodes that SVG to the URI.
      expect(factor.totp.qr_code).toBe(`data:image/svg+xml;utf-8,${await totpQrSvg(factor.totp.uri)}`)
      expect(factor.totp.qr_code).not.toMatch(/[#%]/)
      const secret = factor.totp.secret
      // The secret is stored server-side only: no API answers it again.
      const listed = await client.auth.mfa.listFactors()
      expect(JSON.stringify(listed.data)).not.toContain(secret)
      expect(listed.data?.all.map((f) => f.status)).toEqual(['unverified'])

      const wrongChallenge = await client.auth.mfa.challenge({ factorId: factor.id })
      const wrong = await client.auth.mfa.verify({
        factorId: factor.id,
        challengeId: wrongChallenge.data!.id,
        code: '000000' === (await generate({ secret })) ? '111111' : '000000',
      })
      expect(wrong.error?.code).toBe('mfa_verification_failed')

      const code = await generate({ secret })
      const first = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code })
      expect(first.error).toBeNull()
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })

      // A new sign-in is aal1 and must step up; the code already used cannot be replayed.
      await client.auth.signOut()
      const again = await signedInClient('totp@example.com', 'totp-pass-1')
      expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
      const replay = await again.auth.mfa.challengeAndVerify({ factorId: factor.id, code })
      expect(replay.error?.code).toBe('mfa_verification_failed')
      // The server enforces it too: an aal1 session of this account reads and changes no table
      // (the data API refuses it outright: tests/backend/integrity-aal.test.ts).
      const userId = (await again.auth.getSession()).data.session!.user.id
      expect((await again.from('profiles').select('username').eq('user_id', userId)).error?.message).toMatch(
        /Finish two-factor sign-in first/,
      )
      expect((await again.from('profiles').update({ bio: 'aal1 write' }).eq('user_id', userId).select()).data ?? []).toEqual([])
      // Unenrolling from an aal1 session is refused.
      expect((await again.auth.mfa.unenroll({ factorId: factor.id })).error?.code).toBe('insufficient_aal')
      // So is a password change (the account has a verified factor).
      expect((await again.auth.updateUser({ password: 'totp-pass-2', current_password: 'totp-pass-1' })).error?.code).toBe(
        'insufficient_aal',
      )

      const stepped = await again.auth.mfa.challengeAndVerify({ factorId: factor.id, code: await nextCode(secret) })
      expect(stepped.error).toBeNull()
      const level = await again.auth.mfa.getAuthenticatorAssuranceLevel()
      expect(level.data?.currentLevel).toBe('aal2')
      expect(level.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual(['totp', 'password'])
      expect((await again.from('profiles').select('username').eq('user_id', userId)).data).toEqual([{ username: 'totp' }])
      // A refresh keeps aal2.
      const refreshed = await again.auth.refreshSession()
      expect(JSON.parse(Buffer.from(refreshed.data.session!.access_token.split('.')[1]!, 'base64url').toString()).aal).toBe('aal2')

      const removed = await again.auth.mfa.unenroll({ factorId: factor.id })
      expect(removed.error).toBeNull()
      expect((await again.auth.mfa.listFactors()).data?.all).toEqual([])
      expect(await sql(server, 'select 1 from auth.mfa_factors')).toEqual([])
    },
  )

  it('an expired challenge, a foreign factor and a bad code format are refused', async () => {
    const owner = await signedUpClient('factor1@example.com', 'factor-pass-1')
    const stranger = await signedUpClient('factor2@example.com', 'factor-pass-2')
    const factor = (await owner.auth.mfa.enroll({ factorType: 'totp' })).data!
    expect((await stranger.auth.mfa.challenge({ factorId: factor.id })).error?.code).toBe('mfa_factor_not_found')
    const challenge = (await owner.auth.mfa.challenge({ factorId: factor.id })).data!
    await sql(server, "update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = $1", [challenge.id])
    const late = await owner.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.id,
      code: await generate({ secret: factor.totp.secret }),
    })
    expect(late.error?.code).toBe('mfa_challenge_expired')
    const fresh = (await owner.auth.mfa.challenge({ factorId: factor.id })).data!
    expect((await owner.auth.mfa.verify({ factorId: factor.id, challengeId: fresh.id, code: 'abc' })).error?.code).toBe(
      'mfa_verification_failed',
    )
  })
})
