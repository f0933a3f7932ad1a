import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { creditedListening } from './support/listening.ts'
import { ageAccount, listenHistory } from './support/trust.ts'

// The trust rule (supabase/schemas/trust.sql): until an account is trusted (48 h old,
// listens on 3 distinct days to 10 distinct songs, not one of a ring of 6+ new accounts on one
// address), its whole balance, welcome and earnings alike, is spendable in the app but carries no
// voting power and cannot be claimed out.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function fresh(): Promise<TestUser & { name: string }> {
  n += 1
  const name = `tr${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name)
  await rpc(server, u.accessToken, 'init_user_tokens')
  return { ...u, name }
}
const trust = async (u: TestUser) => (await rpc(server, u.accessToken, 'my_trust_status')).json
const overview = async (u: TestUser) => (await rpc(server, u.accessToken, 'governance_overview')).json
/** The wallet welcome as wallet_link grants it (through post_ledger, so balance = sum(ledger)). */
const walletWelcome = (u: TestUser) =>
  q(
    "select public.post_ledger($1::uuid, 50, 'wallet_welcome', '0x0000000000000000000000000000000000000001', " +
      "'wallet_welcome:' || $1::text)",
    [u.id],
  )
/** Listening seconds the claim pot counts (wallet_claim_status sums the server-measured sessions). */
const listenedHours = (u: TestUser, hours: number) => creditedListening(server, u.id, hours * 3600)
/** balance = sum(ledger) and never negative, for these accounts. */
async function ledgerHolds(users: TestUser[]) {
  const rows = await q<{ balance: number; sum: number }>(
    'select t.balance, coalesce((select sum(amount)::int from public.token_ledger l where l.user_id = t.user_id), 0) as sum ' +
      'from public.user_tokens t where t.user_id = any($1)',
    [users.map((u) => u.id)],
  )
  expect(rows).toHaveLength(users.length)
  for (const r of rows) {
    expect(r.balance).toBe(r.sum)
    expect(r.balance).toBeGreaterThanOrEqual(0)
  }
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  it('a fresh account: 100 CUBE, all locked, untrusted, no voting power; the rule comes from trust_rules()', async () => {
    const u = await fresh()
    expect(await trust(u)).toEqual({
      trusted: false,
      listening_days: 0,
      distinct_songs: 0,
      needed_days: 3,
      needed_songs: 10,
      age_hours: 0,
      needed_age_hours: 48,
      ring_accounts: 1,
      ring_size: 6,
      welcome: 100,
      locked: 100,
      balance: 100,
    })
    expect(await overview(u)).toMatchObject({ balance: 100, locked: 100, trusted: false, own_power: 0, voting_power: 0 })
    const rules = await rpc(server, u.accessToken, 'trust_rules')
    expect(rules.json).toMatchObject({
      needed_days: 3,
      needed_songs: 10,
      min_age_hours: 48,
      max_accounts_per_address: 5,
      link_days: 30,
      welcome_reasons: ['welcome', 'wallet_welcome'],
    })
  })

  it('age is part of trust: 3 days × 10 songs in a 30-hour-old account do not unlock, at 48 hours they do', async () => {
    const u = await fresh()
    await listenHistory(server, u.id)
    await q("update auth.users set created_at = now() - interval '30 hours' where id = $1", [u.id])
    expect(await trust(u)).toMatchObject({ trusted: false, age_hours: 30, locked: 110, balance: 110 })
    const refused = await rpc(server, u.accessToken, 'wallet_claim')
    expect(refused.json).toMatchObject({ message: 'not_trusted' })
    expect(refused.json.details).toContain('Your account must be 48 hours old (it is 30).')
    await ageAccount(server, u.id, 2)
    expect(await trust(u)).toMatchObject({ trusted: true, locked: 0 })
  })

  it('a ring is not trusted: 6 accounts of one generation on one address stay locked; an older account there keeps its trust', async () => {
    const address = '127.0.0.41'
    const elder = await fresh()
    await listenHistory(server, elder.id)
    await ageAccount(server, elder.id, 90)
    const ring = await Promise.all(Array.from({ length: 6 }, () => fresh()))
    const seenAt = (u: TestUser) => rpc(server, u.accessToken, 'post_comment', { p_song_id: 'neon-drift', p_body: 'hi' }, address)
    for (const u of [elder, ...ring]) expect((await seenAt(u)).status).toBe(200)
    for (const u of ring) await listenHistory(server, u.id)
    for (const u of ring) {
      expect(await trust(u)).toMatchObject({ trusted: false, ring_accounts: 6, ring_size: 6 })
      expect(await overview(u)).toMatchObject({ own_power: 0, voting_power: 0 })
      const claim = await rpc(server, u.accessToken, 'wallet_claim')
      expect(claim.json.details).toContain('6 new accounts were used from one of your addresses; trust waits until at most 5 are.')
    }
    // The elder is 90 days older than the ring: not of its generation, so not part of it.
    expect(await trust(elder)).toMatchObject({ trusted: true, ring_accounts: 1, locked: 0 })
    // Five of one generation are a household, not a ring.
    await q('delete from public.account_clients where user_id = $1', [ring[0]!.id])
    expect(await trust(ring[1]!)).toMatchObject({ trusted: true, ring_accounts: 5, locked: 0 })
  })

  it('the welcome bonus is spendable inside the app: it pays for a proposal', async () => {
    const u = await fresh()
    const r = await rpc(server, u.accessToken, 'create_proposal', {
      p_title: 'Paid with the welcome',
      p_description: 'Spending is unchanged',
      p_category: 'other',
      p_ends_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      p_attempt_key: crypto.randomUUID(),
    })
    expect(r.status, r.text).toBe(200)
    expect(r.json.balance).toBe(0)
    expect(await trust(u)).toMatchObject({ trusted: false, locked: 0, balance: 0 })
    await ledgerHolds([u])
  })

  it('wallet_claim refuses an untrusted account in words and writes nothing, even with a full pot', async () => {
    const u = await fresh()
    await listenedHours(u, 2)
    const status = await rpc(server, u.accessToken, 'wallet_claim_status')
    expect(status.json.claimable).toBeGreaterThan(0)
    const r = await rpc(server, u.accessToken, 'wallet_claim')
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({
      message: 'not_trusted',
      details:
        'Claiming unlocks once your account is trusted. Your account must be 48 hours old (it is 0). ' +
        'Listen on 3 different days (0 so far) and to 10 different songs (0 so far).',
    })
    expect(await q("select 1 from public.token_ledger where user_id = $1 and reason = 'claim'", [u.id])).toEqual([])
    await ledgerHolds([u])
  })

  it('trust needs both: 2 days × 10 songs and 3 days × 9 songs are not enough, 3 days × 10 songs is', async () => {
    const a = await fresh()
    await listenHistory(server, a.id, 2, 10)
    expect(await trust(a)).toMatchObject({ trusted: false, listening_days: 2, distinct_songs: 10, locked: 110 })
    const b = await fresh()
    await listenHistory(server, b.id, 3, 9)
    expect(await trust(b)).toMatchObject({ trusted: false, listening_days: 3, distinct_songs: 9, locked: 109 })
    // One more song on a new day makes b trusted.
    await listenHistory(server, b.id, 3, 10)
    expect(await trust(b)).toMatchObject({ trusted: true, listening_days: 3, distinct_songs: 10, locked: 0 })
    // Trusted, its CUBE vote weighted by its 3 of 30 listening days (governance_power).
    expect(await overview(b)).toMatchObject({
      locked: 0,
      trusted: true,
      power_days: 3,
      own_power: Math.floor((0.8 * (100 + 9 + 10) * 3) / 30),
    })
    await ledgerHolds([a, b])
  })

  it('untrusted, the whole balance is locked: welcome and earnings alike; it stays spendable in the app', async () => {
    const u = await fresh()
    await walletWelcome(u)
    await listenHistory(server, u.id, 1, 5) // 5 CUBE earned, still untrusted
    expect(await trust(u)).toMatchObject({ trusted: false, welcome: 150, locked: 155, balance: 155 })
    expect(await overview(u)).toMatchObject({ own_power: 0, voting_power: 0 })
    const spent = await rpc(server, u.accessToken, 'spend_tokens', { p_amount: 100, p_reason: 'remix', p_ref: `r-${u.id}` })
    expect(spent.status, spent.text).toBe(200)
    expect(await trust(u)).toMatchObject({ trusted: false, locked: 55, balance: 55 })
    expect(await overview(u)).toMatchObject({ own_power: 0 })
    await ledgerHolds([u])
  })

  it('once trusted, the claim pays the pot; 20 racing claims pay it once, and 20 racing untrusted claims pay nothing', async () => {
    const trusted = await fresh()
    const untrusted = await fresh()
    await listenedHours(trusted, 2)
    await listenedHours(untrusted, 2)
    await listenHistory(server, trusted.id)
    const pot = (await rpc(server, trusted.accessToken, 'wallet_claim_status')).json.claimable as number
    expect(pot).toBeGreaterThan(0)
    const [ok, refused] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => rpc(server, trusted.accessToken, 'wallet_claim'))),
      Promise.all(Array.from({ length: 20 }, () => rpc(server, untrusted.accessToken, 'wallet_claim'))),
    ])
    for (const r of ok) expect(r.status, r.text).toBe(200)
    expect(ok.reduce((sum, r) => sum + (r.json.claimed as number), 0)).toBe(pot)
    expect(refused.map((r) => r.json.message)).toEqual(Array(20).fill('not_trusted'))
    expect(await q("select amount from public.token_ledger where user_id = $1 and reason = 'claim'", [trusted.id])).toEqual([
      { amount: pot },
    ])
    expect(await q("select 1 from public.token_ledger where user_id = $1 and reason = 'claim'", [untrusted.id])).toEqual([])
    await ledgerHolds([trusted, untrusted])
  })

  it('an outsider cannot read trust figures: trust_status is not callable, my_trust_status needs a session', async () => {
    const u = await fresh()
    const other = await fresh()
    expect((await rpc(server, other.accessToken, 'trust_status', { p_user: u.id })).status).toBeGreaterThanOrEqual(400)
    expect((await rpc(server, other.accessToken, 'account_trust', { p_user: u.id })).status).toBeGreaterThanOrEqual(400)
    const anon = await rpc(server, '', 'my_trust_status')
    expect(anon.status).toBeGreaterThanOrEqual(400)
  })
})
