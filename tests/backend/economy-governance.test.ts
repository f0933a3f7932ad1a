import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'
import { establishedListener } from './support/trust.ts'

// Snapshot-grade governance (supabase/schemas/governance.sql): voting power is
// floor(0.8 x vested balance) of every account at the moment a proposal is created, plus power
// delegated before that moment; quorum is 10 % of the proposal's total snapshot power; proposals
// run at least 24 hours; the server computes the result at close.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

type Account = TestUser & { name: string }
let n = 0
/** An account whose balance is `balance` (moved through post_ledger, so balance = sum(ledger)); an established listener unless told. */
async function account(balance: number, trusted = true): Promise<Account> {
  n += 1
  const name = `eg${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name)
  await rpc(server, u.accessToken, 'init_user_tokens')
  if (trusted) await establishedListener(server, u.id)
  const diff = balance - (await balanceOf(u))
  if (diff !== 0) await move(u, diff)
  return { ...u, name }
}
const balanceOf = async (u: TestUser) =>
  (await q<{ balance: number }>('select balance from public.user_tokens where user_id = $1', [u.id]))[0]!.balance
/** Credits (claim) or debits (remix) the account through post_ledger. */
const move = (u: TestUser, amount: number) =>
  q('select public.post_ledger($1::uuid, $2::int, $3, $4, $5)', [
    u.id,
    amount,
    amount > 0 ? 'claim' : 'remix',
    'test',
    `test-move:${u.id}:${crypto.randomUUID()}`,
  ])
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString()
const create = (u: TestUser, over: Record<string, unknown> = {}) =>
  rpc(server, u.accessToken, 'create_proposal', {
    p_title: 'Snapshot me',
    p_description: 'Power from the moment of creation',
    p_category: 'tokenomics',
    p_ends_at: inHours(72),
    p_attempt_key: crypto.randomUUID(),
    ...over,
  })
async function proposal(author: TestUser): Promise<string> {
  const r = await create(author)
  expect(r.status, r.text).toBe(200)
  return r.json.proposal.id as string
}
const vote = (u: TestUser, id: string, choice = 'for') => rpc(server, u.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: choice })
const delegate = (from: TestUser, to: { name: string } | null) =>
  rpc(server, from.accessToken, 'delegate_voting_power', { p_username: to ? to.name : null })
const powerRow = async (id: string, u: TestUser) =>
  (
    await q<Record<string, unknown>>(
      'select balance, locked, own_power::int, delegated_power::int, delegated, voting_power::int from public.proposal_power ' +
        'where proposal_id = $1 and user_id = $2',
      [id, u.id],
    )
  )[0]
const proposalRow = async (id: string) =>
  (
    await q<{ status: string; votes_for: number; votes_against: number; snapshot_power: number; quorum_power: number }>(
      'select status, votes_for::int, votes_against::int, snapshot_power::int, quorum_power::int from public.proposals where id = $1',
      [id],
    )
  )[0]!
/** Ends the proposal now and lets the server close it (close-on-read). */
async function close(id: string) {
  await q("update public.proposals set created_at = now() - interval '2 days', ends_at = now() - interval '1 second' where id = $1", [id])
  await api(server, '/rest/v1/rpc/governance_proposals', { body: {} })
  return proposalRow(id)
}
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
/** Every unit of power on the proposal counted at most once, and the tally = the votes' powers. */
async function countedOnce(id: string) {
  const votes = await q<{ user_id: string; power: number; delegators: string[] }>(
    'select user_id, power::int, delegators from public.votes where proposal_id = $1',
    [id],
  )
  const named = votes.flatMap((v) => [v.user_id, ...v.delegators])
  expect(new Set(named).size).toBe(named.length)
  for (const v of votes) {
    const [row] = await q<{ power: number }>(
      'select (select own_power from public.proposal_power where proposal_id = $1 and user_id = $2) + coalesce((select ' +
        'sum(own_power) from public.proposal_power where proposal_id = $1 and user_id = any($3)), 0) as power',
      [id, v.user_id, v.delegators],
    )
    expect(Number(row!.power)).toBe(v.power)
  }
  const p = await proposalRow(id)
  expect(p.votes_for + p.votes_against).toBe(votes.reduce((s, v) => s + v.power, 0))
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  describe('welcome tokens carry no voting power', () => {
    it("a fresh account's welcome pays for a proposal, and another fresh account has 0 power on it, told why", async () => {
      const author = await account(100, false)
      const voter = await account(100, false)
      const id = await proposal(author)
      expect(await balanceOf(author)).toBe(0)
      expect(await powerRow(id, voter)).toMatchObject({ balance: 100, locked: 100, own_power: 0, voting_power: 0 })
      const r = await vote(voter, id)
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({
        message: 'insufficient_voting_power',
        details: 'Your account was not trusted yet when this proposal was created, so its CUBE carry no voting power on it.',
      })
      await ledgerHolds([author, voter])
    })

    it('three fresh accounts (sign-up and wallet welcomes) can no longer pass a proposal', async () => {
      const trio = [await account(100, false), await account(100, false), await account(100, false)]
      for (const u of trio) {
        await q("select public.post_ledger($1::uuid, 50, 'wallet_welcome', 'x', 'wallet_welcome:' || $1::text)", [u.id])
      }
      const id = await proposal(trio[0]!)
      const answers = await Promise.all(trio.map((u) => vote(u, id)))
      expect(answers.map((a) => a.json.message)).toEqual(Array(3).fill('insufficient_voting_power'))
      expect(await close(id)).toMatchObject({ status: 'rejected', votes_for: 0, votes_against: 0 })
      await ledgerHolds(trio)
    })
  })

  describe('the snapshot', () => {
    it('balance changes after creation change nothing: a richer voter and a spent-out voter both vote with their snapshot', async () => {
      const author = await account(100)
      const richer = await account(500)
      const spent = await account(500)
      const id = await proposal(author)
      await move(richer, 10_000)
      await move(spent, -500)
      expect(await powerRow(id, richer)).toMatchObject({ balance: 500, own_power: 400, voting_power: 400 })
      expect((await vote(richer, id)).json.vote).toMatchObject({ power: 400 })
      expect((await vote(spent, id, 'against')).json.vote).toMatchObject({ power: 400 })
      // The author's snapshot is taken after the burn: 0 left, no power.
      expect(await powerRow(id, author)).toMatchObject({ balance: 0, voting_power: 0 })
      // The next proposal sees the new balances.
      const next = await proposal(richer)
      expect(await powerRow(next, richer)).toMatchObject({ balance: 10_400, voting_power: 8320 })
      expect(await powerRow(next, spent)).toMatchObject({ balance: 0, voting_power: 0 })
      await countedOnce(id)
      await ledgerHolds([author, richer, spent])
    })

    it('an account created after the proposal has no power on it, told why; on the next proposal it has', async () => {
      const author = await account(100)
      const id = await proposal(author)
      const late = await account(500)
      const r = await vote(late, id)
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({
        message: 'no_power',
        details: 'Voting power comes from balances at the moment a proposal is created, and your account did not exist yet then.',
      })
      expect(await powerRow(id, late)).toBeUndefined()
      await move(author, 100)
      const next = await proposal(author)
      expect((await vote(late, next)).json.vote).toMatchObject({ power: 400 })
    })

    it('delegation before creation counts once; a delegation changed afterwards does not change that snapshot, only the next', async () => {
      const author = await account(100)
      const [x, y, z] = [await account(250), await account(100), await account(100)]
      expect((await delegate(x, y)).status).toBe(200)
      const first = await proposal(author)
      expect(await powerRow(first, x)).toMatchObject({ own_power: 200, delegated: true, voting_power: 0 })
      expect(await powerRow(first, y)).toMatchObject({ own_power: 80, delegated_power: 200, voting_power: 280 })
      expect((await delegate(x, z)).status).toBe(200)
      // Z's panel lists X; Y's no longer does.
      expect((await rpc(server, z.accessToken, 'governance_overview')).json).toMatchObject({
        delegated_power: 200,
        delegators: [{ username: x.name, power: 200 }],
      })
      expect((await rpc(server, y.accessToken, 'governance_overview')).json.delegators).toEqual([])
      // On the first proposal: X's power stays with Y, Z has only its own.
      expect((await vote(x, first)).json.message).toBe('delegated')
      expect((await vote(z, first)).json.vote).toMatchObject({ power: 80, delegators: [] })
      expect((await vote(y, first)).json.vote).toMatchObject({ power: 280, delegators: [x.id] })
      expect((await vote(x, first)).json.message).toBe('power_already_used')
      await countedOnce(first)
      expect((await proposalRow(first)).votes_for).toBe(360)
      // A delegation made after a proposal does not block the delegator's own vote on it.
      await move(author, 100)
      const second = await proposal(author)
      await rpc(server, x.accessToken, 'undelegate_voting_power')
      await delegate(y, z)
      expect((await vote(y, second)).json.vote).toMatchObject({ power: 80, delegators: [] })
      // X's delegation to Z was in place when the second proposal was created.
      expect((await vote(z, second)).json.vote).toMatchObject({ power: 280, delegators: [x.id] })
      expect((await vote(x, second)).json.message).toBe('power_already_used')
      await countedOnce(second)
    })
  })

  describe('quorum, duration and the result', () => {
    it('quorum is 10 % (rounded up) of the total snapshot voting power, stored on the proposal', async () => {
      const rules = (await rpc(server, (await account(0)).accessToken, 'governance_rules')).json
      expect(rules).toMatchObject({ quorum_share: 0.1, min_duration_hours: 24, min_duration_days: 1, power_fraction: 0.8 })
      const author = await account(100)
      await account(1000)
      const id = await proposal(author)
      const [sum] = await q<{ total: number; rows: number; wallets: number }>(
        'select sum(voting_power)::int as total, count(*)::int as rows, (select count(*)::int from public.user_tokens) as wallets ' +
          'from public.proposal_power where proposal_id = $1',
        [id],
      )
      expect(sum!.rows).toBe(sum!.wallets)
      const p = await proposalRow(id)
      expect(p.snapshot_power).toBe(sum!.total)
      expect(p.snapshot_power).toBeGreaterThanOrEqual(800)
      expect(p.quorum_power).toBe(Math.ceil(p.snapshot_power / 10))
      // Anyone sees the totals; nobody sees another account's power.
      const listed = (await api(server, '/rest/v1/rpc/governance_proposals', { body: {} })).json.find((r: { id: string }) => r.id === id)
      expect(listed).toMatchObject({ snapshot_power: p.snapshot_power, quorum_power: p.quorum_power })
    })

    it('a proposal runs at least 24 hours: 2 h is refused, 24 h less a minute of latency is stretched to 24 h', async () => {
      const author = await account(300)
      const short = await create(author, { p_ends_at: inHours(2) })
      expect(short.json).toMatchObject({ message: 'invalid_duration', details: 'A proposal runs 1 to 14 days.' })
      const day = await create(author, { p_ends_at: new Date(Date.now() + 86_400_000 - 60_000).toISOString() })
      expect(day.status, day.text).toBe(200)
      const [row] = await q<{ ok: boolean }>(
        "select ends_at >= created_at + interval '24 hours' as ok from public.proposals where id = $1",
        [day.json.proposal.id],
      )
      expect(row!.ok).toBe(true)
      expect(await balanceOf(author)).toBe(200)
    })

    it('at close the server recomputes For and Against from the votes and applies the stored quorum', async () => {
      const author = await account(300)
      const voter = await account(500)
      const small = await account(100)
      const passes = await proposal(author)
      const shortOfQuorum = await proposal(author)
      const against = await proposal(author)
      await vote(voter, passes)
      await vote(voter, shortOfQuorum)
      await vote(voter, against, 'against')
      await vote(small, against)
      await vote(small, passes, 'against')
      // Whatever the running tallies say, the votes decide; and the quorum is the one stored at creation.
      await q('update public.proposals set votes_for = 999999, votes_against = 0, quorum_power = 480 where id = $1', [passes])
      await q('update public.proposals set votes_for = 999999, quorum_power = 401 where id = $1', [shortOfQuorum])
      await q('update public.proposals set quorum_power = 1 where id = $1', [against])
      expect(await close(passes)).toMatchObject({ status: 'passed', votes_for: 400, votes_against: 80 })
      expect(await close(shortOfQuorum)).toMatchObject({ status: 'rejected', votes_for: 400, votes_against: 0 })
      expect(await close(against)).toMatchObject({ status: 'rejected', votes_for: 80, votes_against: 400 })
      expect((await vote(voter, passes)).json.message).toBe('proposal_closed')
    })
  })

  describe('races (truly concurrent on PostgreSQL)', () => {
    it('20 authors creating proposals while 20 voters vote, spend and re-delegate: snapshots, tallies and the ledger hold', async () => {
      const open = await proposal(await account(100))
      const voters = await Promise.all(Array.from({ length: 20 }, (_, i) => account(100 + 10 * i)))
      const authors = await Promise.all(Array.from({ length: 20 }, () => account(150)))
      const target = await proposal(await account(100))
      await Promise.all([
        ...authors.map((a) => create(a)),
        ...voters.map((v, i) => vote(v, target, i % 3 ? 'for' : 'against')),
        ...voters.map((v, i) => (i % 2 ? move(v, -50) : delegate(v, voters[(i + 1) % 20]!))),
        ...voters.slice(0, 5).map((v) => vote(v, open)),
      ])
      await countedOnce(target)
      await countedOnce(open)
      const created = await q<{ id: string; snapshot_power: number; quorum_power: number; total: number }>(
        'select p.id, p.snapshot_power::int, p.quorum_power::int, (select sum(voting_power)::int from public.proposal_power s ' +
          'where s.proposal_id = p.id) as total from public.proposals p where p.author_id = any($1)',
        [authors.map((a) => a.id)],
      )
      expect(created).toHaveLength(20)
      for (const p of created) {
        expect(p.snapshot_power).toBe(p.total)
        expect(p.quorum_power).toBe(Math.max(Math.ceil(p.total / 10), 1))
      }
      // Each author's own snapshot row was taken after their burn.
      const own = await q<{ balance: number }>(
        'select s.balance from public.proposal_power s join public.proposals p on p.id = s.proposal_id and s.user_id = p.author_id ' +
          'where p.author_id = any($1)',
        [authors.map((a) => a.id)],
      )
      expect(own.map((r) => r.balance)).toEqual(Array(20).fill(50))
      await ledgerHolds([...voters, ...authors])
    }, 90_000)

    it('20 concurrent votes on one proposal with delegations snapshotted: each power counted once, tally = votes', async () => {
      const delegators = await Promise.all(Array.from({ length: 10 }, () => account(200)))
      const delegates = await Promise.all(Array.from({ length: 10 }, () => account(100)))
      for (let i = 0; i < 10; i++) await delegate(delegators[i]!, delegates[i]!)
      const id = await proposal(await account(100))
      const answers = await Promise.all([
        ...delegators.map((d) => vote(d, id)),
        ...delegates.map((d) => vote(d, id, 'against')),
        ...delegators.map((d, i) => delegate(d, delegates[(i + 1) % 10]!)),
      ])
      expect(answers.slice(0, 10).map((a) => a.json.message)).not.toContain(undefined)
      expect(answers.slice(10, 20).every((a) => a.status === 200 && a.json.vote.power === 240)).toBe(true)
      await countedOnce(id)
      expect((await proposalRow(id)).votes_against).toBe(2400)
    })
  })
})

// proposal_power × {anon, owner, another user} × CRUD: an account reads only its own snapshot rows;
// nobody writes them through the API (the proposal's trigger does).
describe('RLS matrix: proposal_power', () => {
  let owner: TestUser
  let other: TestUser
  let proposalId: string
  beforeAll(async () => {
    ;({ server, stop: stopRls } = await serverOn('PGlite'))
    owner = await signUp(server, 'pp-owner@example.com', 'owner-pass', 'ppowner')
    other = await signUp(server, 'pp-other@example.com', 'other-pass', 'ppother')
    await rpc(server, owner.accessToken, 'init_user_tokens')
    await rpc(server, other.accessToken, 'init_user_tokens')
    proposalId = (
      await q<{ id: string }>(
        "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'o', 'T', 'D', " +
          "'other', now() + interval '3 days') returning id",
        [owner.id],
      )
    )[0]!.id
  }, 90_000)
  let stopRls: (() => Promise<void>) | undefined
  afterAll(() => stopRls?.())

  const cases: Record<string, RlsCase> = {
    proposal_power: {
      target: ({ owner: { id } }) => `proposal_id=eq.${proposalId}&user_id=eq.${id}`,
      insert: ({ other: { id } }) => ({
        proposal_id: proposalId,
        user_id: id,
        balance: 0,
        locked: 0,
        own_power: 1000000,
        delegated_power: 0,
        delegated: false,
        voting_power: 1000000,
      }),
      update: { own_power: 1000000, voting_power: 1000000 },
      inserted: async ({ exists }) => exists('select 1 from public.proposal_power where voting_power = 1000000'),
      untouched: async ({ exists }) =>
        exists('select 1 from public.proposal_power where proposal_id = $1 and user_id = $2 and voting_power = 0', [proposalId, owner.id]),
      reset: async ({ q: query }) => {
        await query('delete from public.proposal_power where proposal_id = $1 and user_id <> $2', [proposalId, owner.id])
        await query('update public.proposal_power set own_power = 0, voting_power = 0 where proposal_id = $1 and user_id = $2', [
          proposalId,
          owner.id,
        ])
      },
      expect: readOnlyOwn,
    },
  }
  rlsMatrixTests(cases, () => rlsContext(server, owner, other))
})
