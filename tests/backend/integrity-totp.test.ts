import type { SupabaseClient } from '@supabase/supabase-js'
import { generate } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, sql, supabaseClient, type TestServer } from './support/local-backend.ts'

// docs/security.md item 9: TOTP codes could be guessed without limit (150 wrong codes, then the right one,
// were accepted). The auth service now counts failed codes per factor and per account and, like
// GoTrue, answers 429 while either is locked out, even for the right code. Attacks go through
// supabase-js (auth.mfa) and raw HTTP, as an outsider who knows only the password would.

const MAX_FACTOR_FAILURES = 5
const MAX_ACCOUNT_FAILURES = 10

/** A six-digit code that is not the current one (nor one step either side). */
async function wrongCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const valid = new Set(await Promise.all([-30, 0, 30].map((d) => generate({ secret, epoch: now + d }))))
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0')
    if (!valid.has(code)) return code
  }
}

/** A code for the next time step (allowed drift), never used before. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })

describe.each(DATABASES)('TOTP attempt limit on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 120_000)
  afterAll(() => stop?.())

  let n = 0
  /** A 2FA account (one verified factor) and a fresh password-only (aal1) session of it. */
  async function twoFactorAccount() {
    const email = `totp-lock-${database}-${++n}@example.com`
    const owner = supabaseClient(server)
    expect(
      (await owner.auth.signUp({ email, password: 'lock-pass-1', options: { data: { username: `totplock${database}${n}` } } })).error,
    ).toBeNull()
    const factor = (await owner.auth.mfa.enroll({ factorType: 'totp' })).data!
    expect(
      (await owner.auth.mfa.challengeAndVerify({ factorId: factor.id, code: await generate({ secret: factor.totp.secret }) })).error,
    ).toBeNull()
    const attacker = supabaseClient(server)
    expect((await attacker.auth.signInWithPassword({ email, password: 'lock-pass-1' })).error).toBeNull()
    return { attacker, factorId: factor.id, secret: factor.totp.secret, email }
  }

  const tryCode = async (client: SupabaseClient, factorId: string, code: string) => {
    const challenge = await client.auth.mfa.challenge({ factorId })
    if (challenge.error) return challenge.error
    return (await client.auth.mfa.verify({ factorId, challengeId: challenge.data.id, code })).error
  }

  it('locks a factor after 5 wrong codes: the 6th wrong code and then the right code get 429 with a message in words', async () => {
    const { attacker, factorId, secret } = await twoFactorAccount()
    for (let i = 0; i < MAX_FACTOR_FAILURES; i++)
      expect((await tryCode(attacker, factorId, await wrongCode(secret)))?.code).toBe('mfa_verification_failed')
    const sixth = await tryCode(attacker, factorId, await wrongCode(secret))
    expect(sixth?.status).toBe(429)
    expect(sixth?.code).toBe('over_request_rate_limit')
    expect(sixth?.message).toMatch(/Too many wrong two-factor codes: try again in \d+ minutes?/)
    // The right code during the lockout is refused too, and the session stays aal1.
    const right = await tryCode(attacker, factorId, await nextCode(secret))
    expect(right?.status).toBe(429)
    expect((await attacker.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1')
  })

  it('the lockout ends after its period: then the right code works', async () => {
    const { attacker, factorId, secret } = await twoFactorAccount()
    for (let i = 0; i < MAX_FACTOR_FAILURES; i++) await tryCode(attacker, factorId, await wrongCode(secret))
    expect((await tryCode(attacker, factorId, await nextCode(secret)))?.status).toBe(429)
    // Five minutes pass (the failures age out of the window).
    await sql(server, "update auth.mfa_failed_attempts set created_at = created_at - interval '301 seconds' where factor_id = $1", [
      factorId,
    ])
    expect(await tryCode(attacker, factorId, await nextCode(secret))).toBeNull()
    expect((await attacker.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2')
  })

  it('150 wrong codes fired at once: at most 5 are judged, the rest are refused unjudged, and the right code afterwards ' +
    'is refused', async () => {
    const { attacker, factorId, secret } = await twoFactorAccount()
    const token = (await attacker.auth.getSession()).data.session!.access_token
    const challengeId = (await attacker.auth.mfa.challenge({ factorId })).data!.id
    const code = await wrongCode(secret)
    const answers = await Promise.all(
      Array.from({ length: 150 }, () =>
        api(server, `/auth/v1/factors/${factorId}/verify`, { token, body: { challenge_id: challengeId, code } }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 422)).toHaveLength(MAX_FACTOR_FAILURES)
    expect(statuses.filter((s) => s === 429)).toHaveLength(150 - MAX_FACTOR_FAILURES)
    expect(await sql(server, 'select count(*)::int as n from auth.mfa_failed_attempts where factor_id = $1', [factorId])).toEqual([
      { n: MAX_FACTOR_FAILURES },
    ])
    const right = await api(server, `/auth/v1/factors/${factorId}/verify`, {
      token,
      body: { challenge_id: challengeId, code: await nextCode(secret) },
    })
    expect(right.status).toBe(429)
    expect(right.json.msg).toMatch(/Too many wrong two-factor codes/)
  }, 60_000)

  it('locks the account across factors: 4 + 4 + 2 wrong codes on three factors lock all of them', async () => {
    const email = `totp-account-${database}@example.com`
    const client = supabaseClient(server)
    expect(
      (await client.auth.signUp({ email, password: 'lock-pass-2', options: { data: { username: `totpacct${database}` } } })).error,
    ).toBeNull()
    const factors = []
    for (const name of ['A', 'B', 'C']) factors.push((await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: name })).data!)
    const [a, b, c] = factors as [(typeof factors)[0], (typeof factors)[0], (typeof factors)[0]]
    for (const [factor, times] of [
      [a, 4],
      [b, 4],
      [c, MAX_ACCOUNT_FAILURES - 8],
    ] as const) {
      for (let i = 0; i < times; i++)
        expect((await tryCode(client, factor.id, await wrongCode(factor.totp.secret)))?.code).toBe('mfa_verification_failed')
    }
    // No factor reached its own limit, but the account did: even A's right code is refused.
    const locked = await tryCode(client, a.id, await nextCode(a.totp.secret))
    expect(locked?.status).toBe(429)
    expect(locked?.message).toMatch(/Too many wrong two-factor codes/)
  })
})
