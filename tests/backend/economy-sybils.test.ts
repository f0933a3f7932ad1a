import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'
import { creditedListening, expectLedgerHolds, passTime, playId } from './support/listening.ts'
import { ageAccount, establishedListener, FULL_POWER_DAYS, listenHistory } from './support/trust.ts'

// Sybils as an attacker runs them: many accounts signed up from one client address (127.0.0.x
// loopback addresses stand for distinct clients), earning, paying each other and delegating
// through the ordinary API. The rules (supabase/schemas/trust.sql): trust covers everything an
// account holds (public.account_trust); linked accounts never pay each other (public.accounts_linked),
// and one address earns at most link_rules().address_daily_cap a day (public.address_allowance).

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const BOUND = 1000

let n = 0
type Account = TestUser & { name: string; from: string }
async function account(from: string, ageDays = 0): Promise<Account> {
  n += 1
  const name = `sy${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name, from)
  const a = { ...u, name, from }
  await call(a, 'init_user_tokens')
  if (ageDays) await ageAccount(server, u.id, ageDays)
  return a
}
const call = (u: Account, name: string, args: Record<string, unknown> = {}) => rpc(server, u.accessToken, name, args, u.from)
const comment = (u: Account, song: string, parent?: string) =>
  call(u, 'post_comment', { p_song_id: song, p_body: `on ${song}`, ...(parent ? { p_parent_id: parent } : {}) })
const like = (u: Account, commentId: string) => call(u, 'set_comment_like', { p_comment_id: commentId, p_liked: true })
const earned = async (users: TestUser[], reasons: string[]) =>
  Number(
    (
      await q<{ s: string }>(
        'select coalesce(sum(amount), 0)::text as s from public.token_ledger where user_id = any($1) and reason = any($2)',
        [users.map((u) => u.id), reasons],
      )
    )[0]!.s,
  )
const EARN = ['listen', 'creator', 'comment', 'comment_goal', 'reply', 'like', 'share']

let songSeq = 0
async function songs(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `sybil-song-${++songSeq}`)
  for (const id of ids) await q("insert into public.songs (id, slug, title, artist, duration_seconds) values ($1, $1, 'T', 'A', 60)", [id])
  return ids
}
/** Ten top-level comments of `u`, one per song: 10 x 5 CUBE and the daily goal's 10. */
async function tenComments(u: Account, on: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const song of on) {
    const r = await comment(u, song)
    expect(r.status, r.text).toBe(200)
    ids.push(r.json.comment.id)
  }
  return ids
}
/** A listen session of `song` that has played 40 s and waits for its next report to be credited. */
async function heardListen(u: Account, song: string): Promise<string> {
  const start = await call(u, 'listen_start', { p_song_id: song, p_play_id: playId(song), p_interacted: true })
  expect(start.status, start.text).toBe(200)
  await passTime(server, start.json.session_id, 40)
  return start.json.session_id as string
}

describe.each(DATABASES)('on %s', { timeout: 180_000 }, (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  it('fresh sybils: what they earn holds 0 votes and 0 claimable, and cannot be delegated', async () => {
    const collector = await account('127.0.0.20', 10)
    await listenHistory(server, collector.id)
    const on = await songs(10)
    const sybils = await Promise.all(Array.from({ length: 5 }, () => account('127.0.0.21')))
    for (const s of sybils) {
      await tenComments(s, on)
      await creditedListening(server, s.id, 2 * 3600)
    }
    for (const s of sybils) {
      const trust = (await call(s, 'my_trust_status')).json
      expect(trust).toMatchObject({ trusted: false, balance: 160, locked: 160 })
      expect((await call(s, 'governance_overview')).json).toMatchObject({ balance: 160, own_power: 0, voting_power: 0 })
      expect((await call(s, 'wallet_claim_status')).json.claimable).toBeGreaterThan(0)
      expect((await call(s, 'wallet_claim')).json).toMatchObject({ message: 'not_trusted' })
      const d = await call(s, 'delegate_voting_power', { p_username: collector.name })
      expect(d.status).toBe(400)
      expect(d.json).toMatchObject({ message: 'not_trusted' })
    }
    const ids = sybils.map((s) => s.id)
    expect(await q("select 1 from public.token_ledger where user_id = any($1) and reason = 'claim'", [ids])).toEqual([])
    expect(await q('select 1 from public.delegations where delegator_id = any($1)', [ids])).toEqual([])
    // A proposal made now: the sybils' 5 x 160 CUBE count nothing in its snapshot.
    const created = await call(collector, 'create_proposal', {
      p_title: 'Sybil power',
      p_description: 'Counted?',
      p_category: 'other',
      p_ends_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      p_attempt_key: crypto.randomUUID(),
    })
    expect(created.status, created.text).toBe(200)
    const power = await q<{ v: string }>(
      'select coalesce(sum(voting_power), 0)::text as v from public.proposal_power where proposal_id = $1 and user_id = any($2)',
      [created.json.proposal.id, ids],
    )
    expect(power[0]!.v).toBe('0')
    for (const s of sybils) {
      const v = await call(s, 'cast_vote', { p_proposal_id: created.json.proposal.id, p_choice: 'for' })
      expect(v.json).toMatchObject({ message: 'insufficient_voting_power' })
    }
    await expectLedgerHolds(server, collector, ...sybils)
  })

  it('a snapshot counts only accounts trusted when the proposal was created, delegated power too', async () => {
    const voter = await account('127.0.0.50', 10)
    await establishedListener(server, voter.id)
    const untrusted = await account('127.0.0.51')
    const untrustedDelegator = await account('127.0.0.52')
    const trustedDelegator = await account('127.0.0.53', 10)
    await establishedListener(server, trustedDelegator.id)
    // Earned CUBE (through post_ledger, so balance = sum(ledger)) in both untrusted accounts.
    for (const u of [untrusted, untrustedDelegator])
      await q("select public.post_ledger($1::uuid, 400, 'comment', 'x', 'earned:' || $1::text)", [u.id])
    // Delegations written as they stood before the rule (the API now refuses the untrusted one):
    // an untrusted delegator to a trusted voter, a trusted delegator to an untrusted delegate.
    await q('insert into public.delegations (delegator_id, delegate_id) values ($1, $2), ($3, $4)', [
      untrustedDelegator.id,
      voter.id,
      trustedDelegator.id,
      untrusted.id,
    ])
    const created = await call(voter, 'create_proposal', {
      p_title: 'Only the trusted',
      p_description: 'Who counts',
      p_category: 'other',
      p_ends_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      p_attempt_key: crypto.randomUUID(),
    })
    expect(created.status, created.text).toBe(200)
    const id = created.json.proposal.id as string
    const row = async (u: TestUser) =>
      (
        await q<{ own: number; received: number; voting: number }>(
          'select own_power::int as own, delegated_power::int as received, voting_power::int as voting from public.proposal_power ' +
            'where proposal_id = $1 and user_id = $2',
          [id, u.id],
        )
      )[0]
    const voterOwn = Math.floor(0.8 * (130 - 100)) // 130 after 30 days of listening, minus the proposal's 100
    expect(await row(voter)).toEqual({ own: voterOwn, received: 0, voting: voterOwn })
    expect(await row(untrusted)).toEqual({ own: 0, received: 0, voting: 0 })
    expect(await row(untrustedDelegator)).toMatchObject({ own: 0, voting: 0 })
    // Becoming trusted after the proposal was created changes nothing on it.
    await listenHistory(server, untrusted.id)
    await ageAccount(server, untrusted.id, 10)
    expect((await call(untrusted, 'my_trust_status')).json.trusted).toBe(true)
    expect((await call(untrusted, 'cast_vote', { p_proposal_id: id, p_choice: 'for' })).json).toMatchObject({
      message: 'insufficient_voting_power',
      details: 'Your account was not trusted yet when this proposal was created, so its CUBE carry no voting power on it.',
    })
    const vote = await call(voter, 'cast_vote', { p_proposal_id: id, p_choice: 'for' })
    expect(vote.status, vote.text).toBe(200)
    expect(vote.json.vote.power).toBe(voterOwn)
    const [p] = await q<{ snapshot_power: string }>('select snapshot_power::text from public.proposals where id = $1', [id])
    const trustedTotal = await q<{ v: string }>(
      'select coalesce(sum(voting_power), 0)::text as v from public.proposal_power where proposal_id = $1 and user_id = any($2)',
      [id, [untrusted.id, untrustedDelegator.id]],
    )
    expect(trustedTotal[0]!.v).toBe('0')
    expect(Number(p!.snapshot_power)).toBeGreaterThanOrEqual(voterOwn)
  })

  it('linked accounts cannot delegate to each other: one address, or a fresh delegator', async () => {
    const a = await account('127.0.0.54', 10)
    const b = await account('127.0.0.54', 10)
    for (const u of [a, b]) {
      await listenHistory(server, u.id)
      expect((await comment(u, 'neon-drift')).status).toBe(200) // both seen at 127.0.0.54
    }
    const r = await call(a, 'delegate_voting_power', { p_username: b.name })
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ message: 'linked_account' })
    expect(await q('select 1 from public.delegations where delegator_id = $1', [a.id])).toEqual([])
    // A trusted stranger on another address may.
    const c = await account('127.0.0.55', 10)
    await listenHistory(server, c.id)
    expect((await call(c, 'delegate_voting_power', { p_username: b.name })).status).toBe(200)
  })

  it('a comment ring of 3 fresh accounts from one address (comments, replies, likes) earns nothing from each other', async () => {
    const rings = {
      'fresh, one address': await Promise.all([account('127.0.0.22'), account('127.0.0.22'), account('127.0.0.22')]),
      'aged, one address': await Promise.all([account('127.0.0.23', 10), account('127.0.0.23', 10), account('127.0.0.23', 10)]),
      'fresh, three addresses': await Promise.all([account('127.0.0.24'), account('127.0.0.25'), account('127.0.0.26')]),
    }
    for (const [label, ring] of Object.entries(rings)) {
      const on = await songs(10)
      const comments = new Map<string, string[]>()
      for (const u of ring) comments.set(u.id, await tenComments(u, on))
      await Promise.all(
        ring.map(async (u) => {
          const others = ring.filter((o) => o !== u).flatMap((o) => comments.get(o.id)!)
          const replies = await Promise.all(others.slice(0, 10).map((c, i) => comment(u, on[i % 10]!, c)))
          const likes = await Promise.all(others.slice(0, 20).map((c) => like(u, c)))
          for (const r of [...replies, ...likes]) expect(r.status, r.text).toBe(200)
          for (const r of [...replies, ...likes]) expect(r.json.credited, label).toEqual([])
        }),
      )
      expect(await earned(ring, ['reply', 'like']), label).toBe(0)
      for (const u of ring) expect(await earned([u], EARN), label).toBe(60) // its own 10 comments and the goal
      await expectLedgerHolds(server, ...ring)
    }
    // The rules still pay a stranger: aged, on another address.
    const stranger = await account('127.0.0.27', 10)
    const target = rings['aged, one address'][0]!
    const targetComment = (
      await q<{ id: string }>('select id from public.comments where user_id = $1 and parent_id is null limit 1', [target.id])
    )[0]!.id
    const song = (await q<{ song_id: string }>('select song_id from public.comments where id = $1', [targetComment]))[0]!.song_id
    const before = await earned([target], ['reply'])
    expect((await comment(stranger, song, targetComment)).json.credited).toEqual([{ reason: 'reply', amount: 3 }])
    expect((await like(stranger, targetComment)).json.credited).toEqual([{ reason: 'like', amount: 2 }])
    expect(await earned([target], ['reply'])).toBe(before + 3)
  })

  it('30 accounts from one address, racing listens and comments, earn exactly the per-address bound a day', async () => {
    const address = '127.0.0.30'
    const sybils: Account[] = []
    for (let i = 0; i < 30; i++) sybils.push(await account(address))
    const on = await songs(10)
    // Ten of them have a listen of 40 s waiting to be credited (2 CUBE each).
    const sessions = await Promise.all(sybils.slice(0, 10).map((s) => heardListen(s, 'neon-drift')))
    // 30 x 60 CUBE of comments and 10 x 2 of listens asked for at once: 1820 against the bound of 1000.
    const answers = await Promise.all([
      ...sybils.flatMap((s) => on.map((song) => comment(s, song))),
      ...sybils.slice(0, 10).map((s, i) => call(s, 'listen_report', { p_session_id: sessions[i], p_playing: true })),
    ])
    for (const r of answers) expect(r.status, r.text).toBe(200)
    expect(await earned(sybils, EARN)).toBe(BOUND)
    const [counter] = await q<{ earned: number }>(
      "select earned from public.address_earnings where address_key = encode(sha256(convert_to($1, 'UTF8')), 'hex') " +
        "and day = (now() at time zone 'utc')::date",
      [address],
    )
    expect(counter!.earned).toBe(BOUND)
    const refused = answers.filter((r) => Array.isArray(r.json.credited) && r.json.credited.length === 0)
    expect(refused.length).toBeGreaterThan(0)
    // Past the bound, nothing more: a further listen ends as 'address_cap'.
    const late = await heardListen(sybils[20]!, 'low-tide-memory')
    expect((await call(sybils[20]!, 'listen_report', { p_session_id: late, p_playing: true })).json).toMatchObject({
      credited: 0,
      reason: 'address_cap',
    })
    expect(await earned(sybils, EARN)).toBe(BOUND)
    await expectLedgerHolds(server, ...sybils)
    // Another address is not touched by this one's bound.
    const neighbour = await account('127.0.0.33')
    expect((await comment(neighbour, on[0]!)).json.credited).toEqual([{ reason: 'comment', amount: 5 }])
    expect((await call(sybils[0]!, 'my_address_allowance')).json).toEqual({ daily_cap: BOUND, earned_today: BOUND, left_today: 0 })
  })

  it('an honest family of four on one address earns in full, becomes trusted and votes', async () => {
    const family = await Promise.all(Array.from({ length: 4 }, () => account('127.0.0.31', 10)))
    const on = await songs(10)
    await Promise.all(family.map((u) => tenComments(u, on)))
    for (const u of family) {
      for (const song of ['neon-drift', 'low-tide-memory', 'rainy-terminal']) {
        const s = await heardListen(u, song)
        expect((await call(u, 'listen_report', { p_session_id: s, p_playing: true })).json.credited).toBe(2)
      }
    }
    for (const u of family) expect(await earned([u], EARN)).toBe(66)
    // Strangers' likes of the family's comments pay as ever.
    const friend = await account('127.0.0.32', 10)
    const theirs = (
      await q<{ id: string }>('select id from public.comments where user_id = $1 and parent_id is null limit 1', [family[0]!.id])
    )[0]!.id
    expect((await like(friend, theirs)).json.credited).toEqual([{ reason: 'like', amount: 2 }])
    // Four accounts on one address are a household, not a ring: each becomes trusted and votes.
    for (const u of family) await listenHistory(server, u.id)
    for (const u of family) {
      expect((await call(u, 'my_trust_status')).json).toMatchObject({ trusted: true, locked: 0, ring_accounts: 4 })
      expect((await call(u, 'governance_overview')).json.own_power).toBeGreaterThan(0)
    }
    const proposal = await call(family[0]!, 'create_proposal', {
      p_title: 'Family vote',
      p_description: 'We count',
      p_category: 'community',
      p_ends_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      p_attempt_key: crypto.randomUUID(),
    })
    expect(proposal.status, proposal.text).toBe(200)
    const vote = await call(family[1]!, 'cast_vote', { p_proposal_id: proposal.json.proposal.id, p_choice: 'for' })
    expect(vote.status, vote.text).toBe(200)
    // Voting power matures with listening: 3 days of history and today's are 4 of FULL_POWER_DAYS.
    expect(vote.json.vote.power).toBe(Math.floor((0.8 * (100 + 66 + 10) * 4) / FULL_POWER_DAYS))
    await expectLedgerHolds(server, ...family, friend)
    void database
  })
})

describe('RLS of address_earnings: server-only', () => {
  let rlsServer: TestServer
  let owner: TestUser
  let other: TestUser
  const ctx = () => rlsContext(rlsServer, owner, other)
  const CASES: Record<string, RlsCase> = {
    address_earnings: {
      target: () => 'address_key=eq.rls-fixture',
      insert: () => ({ address_key: 'forged', day: '2030-01-01', earned: 0 }),
      update: { earned: 0 },
      inserted: () => ctx().exists("select 1 from public.address_earnings where address_key = 'forged'"),
      untouched: () => ctx().exists("select 1 from public.address_earnings where address_key = 'rls-fixture' and earned = 500"),
      reset: () =>
        ctx().q(
          "insert into public.address_earnings (address_key, day, earned) values ('rls-fixture', '2001-01-01', 500) " +
            'on conflict (address_key, day) do update set earned = 500',
        ),
      expect: {
        anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
        other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      },
    },
  }
  beforeAll(async () => {
    rlsServer = await startTestServer()
    owner = await signUp(rlsServer, `ae-owner-${Date.now()}@example.com`, 'pass-word', `aeo${Date.now() % 100000}`)
    other = await signUp(rlsServer, `ae-other-${Date.now()}@example.com`, 'pass-word', `aet${Date.now() % 100000}`)
  }, 60_000)
  afterAll(() => rlsServer?.close())
  rlsMatrixTests(CASES, ctx)
})
