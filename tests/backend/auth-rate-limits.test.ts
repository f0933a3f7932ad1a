import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../supabase/local/auth/rate-limit.ts'
import { optionsFromEnv } from '../../supabase/local/core/options.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, fetchFrom, signUp, sql, startTestServer, supabaseClient, type TestServer, type TestUser } from './support/local-backend.ts'

// Accounts and the faucet: sign-ups and wallet links are rate-limited per client
// address per hour. Sign-ups in the auth service, in memory, as GoTrue does (429
// over_request_rate_limit "Request rate limit reached", so supabase-js reports it as GoTrue's);
// wallet links in wallet-verify, whose count lives in SQL (public.client_rate_take), because edge
// functions keep no memory between calls on hosted Supabase. Client addresses: connections from
// 127.0.0.2, 127.0.0.3, … (all of 127/8 is local on Linux).

let n = 0
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`
const signUpRaw = (server: TestServer, from: string, body: Record<string, unknown> = { email: email('rl'), password: 'rate-pass-1' }) =>
  api(server, '/auth/v1/signup', { body, from })

describe('sign-ups per client address per hour', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ signupRateLimit: { max: 30, seconds: 3600 } })
  }, 60_000)
  afterAll(() => server?.close())

  it('the 31st sign-up from one address within the hour gets GoTrue 429; another address still can', async () => {
    for (let i = 0; i < 30; i++) expect((await signUpRaw(server, '127.0.0.2')).status, `sign-up ${i + 1}`).toBe(200)
    const refused = await signUpRaw(server, '127.0.0.2')
    expect(refused.status).toBe(429)
    expect(refused.json).toEqual({
      code: 'over_request_rate_limit',
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    })
    expect(refused.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect((await signUpRaw(server, '127.0.0.3')).status).toBe(200)
    // A forged X-Forwarded-For is not believed: the socket's peer is the client.
    expect(
      (
        await api(server, '/auth/v1/signup', {
          body: { email: email('xff'), password: 'rate-pass-1' },
          from: '127.0.0.2',
          headers: { 'X-Forwarded-For': '203.0.113.9' },
        })
      ).status,
    ).toBe(429)
  })

  it('supabase-js reports it as GoTrue would: AuthApiError 429 with the code', async () => {
    for (let i = 0; i < 30; i++) await signUpRaw(server, '127.0.0.4')
    const client = supabaseClient(server, fetchFrom('127.0.0.4'))
    const { data, error } = await client.auth.signUp({ email: email('js'), password: 'rate-pass-1' })
    expect(data.user).toBeNull()
    expect(error).toMatchObject({
      name: 'AuthApiError',
      status: 429,
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    })
  })

  it('40 concurrent sign-ups from one address: exactly 30 accounts', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => signUpRaw(server, '127.0.0.5')))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30)
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10)
  })

  it('every request counts, as in GoTrue: refused sign-ups (a weak password) use the allowance too', async () => {
    for (let i = 0; i < 30; i++) expect((await signUpRaw(server, '127.0.0.6', { email: email('weak'), password: 'x' })).status).toBe(422)
    expect((await signUpRaw(server, '127.0.0.6')).status).toBe(429)
    // Signing in is not a sign-up.
    const u = await signUp(server, email('in'), 'rate-pass-1', undefined, '127.0.0.7')
    const token = await api(server, '/auth/v1/token?grant_type=password', {
      body: { email: u.email, password: u.password },
      from: '127.0.0.6',
    })
    expect(token.status).toBe(200)
  })

  it('the limiter forgets a request an hour after it was made', () => {
    let now = 0
    const limiter = createRateLimiter({ max: 2, seconds: 3600 }, () => now)
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('b')]).toEqual([true, true, false, true])
    now = 1800_000
    expect(limiter.take('a')).toBe(false)
    now = 3600_001
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([true, true, false])
  })

  it('is configured by LOCAL_SIGNUP_RATE_LIMIT and LOCAL_WALLET_LINK_RATE_LIMIT (per hour); nonsense refuses to start', () => {
    expect(optionsFromEnv({ LOCAL_SIGNUP_RATE_LIMIT: '5', LOCAL_WALLET_LINK_RATE_LIMIT: '2' })).toMatchObject({
      signupRateLimit: { max: 5, seconds: 3600 },
      walletLinkRateLimit: 2,
    })
    expect(optionsFromEnv({}).signupRateLimit).toBeUndefined()
    expect(() => optionsFromEnv({ LOCAL_SIGNUP_RATE_LIMIT: 'lots' })).toThrow(/LOCAL_SIGNUP_RATE_LIMIT must be a whole number/)
    expect(() => optionsFromEnv({ LOCAL_WALLET_LINK_RATE_LIMIT: '0' })).toThrow(/LOCAL_WALLET_LINK_RATE_LIMIT/)
  })

  it('defaults to 30 sign-ups an hour per address', async () => {
    const plain = await import('../../supabase/local/auth/rate-limit.ts')
    expect(plain.DEFAULT_SIGNUP_RATE_LIMIT).toEqual({ max: 30, seconds: 3600 })
  })
})

describe.each(DATABASES)('wallet links per client address per hour on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database, { walletLinkRateLimit: 3 }))
  }, 120_000)
  afterAll(() => stop?.())

  const link = (u: TestUser, from: string, headers?: Record<string, string>) =>
    api(server, '/functions/v1/wallet-verify', { token: u.accessToken, body: { custodial: true }, from, headers })
  const welcomes = async (users: TestUser[]) =>
    (
      await sql<{ n: number }>(
        server,
        "select count(*)::int as n from public.token_ledger where reason = 'wallet_welcome' and user_id = any($1)",
        [users.map((u) => u.id)],
      )
    )[0]!.n

  it('6 accounts linking at once from one address: 3 linked (and welcomed), 3 get a 429 in words; another address still can', async () => {
    const users = await Promise.all(Array.from({ length: 7 }, () => signUp(server, email('link'))))
    const answers = await Promise.all(users.slice(0, 6).map((u) => link(u, '127.0.0.8')))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3)
    const refused = answers.filter((a) => a.status === 429)
    expect(refused).toHaveLength(3)
    for (const r of refused) {
      expect(r.json.code).toBe('over_request_rate_limit')
      expect(r.json.error).toMatch(/Too many wallet links from your network: at most 3 an hour/)
    }
    expect(await welcomes(users)).toBe(3)
    // The 7th account from a client that claims another address in X-Forwarded-For: still the same client.
    expect((await link(users[6]!, '127.0.0.8', { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(429)
    expect((await link(users[6]!, '127.0.0.9')).status).toBe(200)
    expect(await welcomes(users)).toBe(4)
    const broken = await sql(
      server,
      `select t.user_id from public.user_tokens t
        where t.balance < 0 or t.balance <> (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)`,
    )
    expect(broken).toEqual([])
  })
})
