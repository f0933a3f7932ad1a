import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { establishedListener } from './support/trust.ts'

// Governance decided by the server (supabase/schemas/governance.sql): the proposal's burn, votes
// weighted at vote time, delegation, closing, and bad input.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function user(balance: number): Promise<TestUser & { name: string }> {
  n += 1
  const name = `g${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name)
  await rpc(server, u.accessToken, 'init_user_tokens')
  // A trusted, established listener (supabase/schemas/trust.sql, governance.sql), so its whole balance votes.
  await establishedListener(server, u.id)
  await q('update public.user_tokens set balance = $2 where user_id = $1', [u.id, balance])
  return { ...u, name }
}
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString()
const create = (u: TestUser, over: Record<string, unknown> = {}) =>
  rpc(server, u.accessToken, 'create_proposal', {
    p_title: 'Lower fees',
    p_description: 'Make remixing cheaper',
    p_category: 'tokenomics',
    p_ends_at: inDays(7),
    p_attempt_key: crypto.randomUUID(),
    ...over,
  })
const vote = (u: TestUser, id: string, choice = 'for') => rpc(server, u.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: choice })
const balance = async (u: TestUser) =>
  (await q<{ balance: number }>('select balance from public.user_tokens where user_id = $1', [u.id]))[0]!.balance

/** A proposal made directly in the table (no burn), for the voting tests. */
async function proposal(author: TestUser): Promise<string> {
  const rows = await q<{ id: string }>(
    "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'x', 'T', " +
      "'D', 'other', now() + interval '3 days') returning id",
    [author.id],
  )
  return rows[0]!.id
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  describe('creating a proposal', () => {
    it('100 CUBE → create → 0, one burn of 100 in the ledger, the proposal listed', async () => {
      const u = await user(100)
      const r = await create(u)
      expect(r.status, r.text).toBe(200)
      expect(r.json.balance).toBe(0)
      expect(await balance(u)).toBe(0)
      expect(await q('select amount, reason from public.token_ledger where user_id = $1 and reason = $2', [u.id, 'proposal'])).toEqual([
        { amount: -100, reason: 'proposal' },
      ])
      const list = await api(server, '/rest/v1/rpc/governance_proposals', { body: {} })
      expect(list.json.map((p: { id: string }) => p.id)).toContain(r.json.proposal.id)
      expect(r.json.proposal).toMatchObject({
        title: 'Lower fees',
        category: 'tokenomics',
        status: 'active',
        votes_for: 0,
        author_name: u.name,
      })
    })

    it('99 CUBE is refused by the server and nothing is stored', async () => {
      const u = await user(99)
      const r = await create(u)
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({ message: 'insufficient_balance', details: 'You need at least 100 CUBE to create a proposal' })
      expect(await balance(u)).toBe(99)
      expect(await q('select 1 from public.proposals where author_id = $1', [u.id])).toHaveLength(0)
    })

    it('refuses an empty field, an unknown category, an end date in the past or beyond 14 days', async () => {
      const u = await user(500)
      expect((await create(u, { p_title: '  ' })).json).toMatchObject({
        message: 'incomplete_proposal',
        details: 'Please fill out all fields',
      })
      expect((await create(u, { p_category: 'money' })).json.message).toBe('unknown_category')
      const past = await create(u, { p_ends_at: inDays(-1) })
      expect(past.status).toBe(400)
      expect(past.json.message).toBe('end_date_in_past')
      expect((await create(u, { p_ends_at: inDays(15) })).json.message).toBe('invalid_duration')
      expect(await q('select 1 from public.proposals where author_id = $1', [u.id])).toHaveLength(0)
      expect(await balance(u)).toBe(500)
    })
  })

  describe('voting', () => {
    it('a vote with balance 250 counts 200, whatever power the client sends', async () => {
      const author = await user(0)
      const v = await user(250)
      const id = await proposal(author)
      const forged = await rpc(server, v.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: 'for', p_power: 1_000_000 })
      expect(forged.status).toBe(404)
      const r = await vote(v, id)
      expect(r.status, r.text).toBe(200)
      expect(r.json.vote).toMatchObject({ choice: 'for', power: 200 })
      expect(r.json.proposal).toMatchObject({ votes_for: 200, votes_against: 0, voter_count: 1 })
    })

    it('10 concurrent votes by one user → one vote; a second vote is refused and changes nothing', async () => {
      const author = await user(0)
      const v = await user(100)
      const id = await proposal(author)
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => vote(v, id, i % 2 ? 'against' : 'for')))
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      expect(results.filter((r) => r.status === 400).map((r) => r.json.message)).toEqual(Array(9).fill('already_voted'))
      const [p] = await q<{ votes_for: string; votes_against: string; voter_count: number }>(
        'select votes_for::text, votes_against::text, voter_count from public.proposals where id = $1',
        [id],
      )
      expect(Number(p!.votes_for) + Number(p!.votes_against)).toBe(80)
      expect(p!.voter_count).toBe(1)
    })

    it('a delegator voting, delegating and their delegate voting all at once never count the same power twice', async () => {
      for (let i = 0; i < 5; i++) {
        const author = await user(0)
        const delegator = await user(250)
        const delegate = await user(100)
        const id = await proposal(author)
        await Promise.all([
          vote(delegator, id),
          rpc(server, delegator.accessToken, 'delegate_voting_power', { p_username: delegate.name }),
          vote(delegate, id),
        ])
        const [row] = await q<{ uses: string; total: string }>(
          'select (select count(*) from public.votes where proposal_id = $1 and (user_id = $2 or $2 = any ' +
            '(delegators)))::text as uses, (select votes_for + votes_against from public.proposals where id = $1)::text as ' +
            'total',
          [id, delegator.id],
        )
        expect(Number(row!.uses)).toBeLessThanOrEqual(1)
        expect(Number(row!.total)).toBe(80 + Number(row!.uses) * 200)
      }
    }, 90_000)

    it('at 0 CUBE: insufficient voting power', async () => {
      const author = await user(0)
      const r = await vote(author, await proposal(author))
      expect(r.json).toMatchObject({ message: 'insufficient_voting_power', details: 'You need CUBE tokens to participate in governance' })
    })

    it("delegation adds the delegator's power to the delegate and blocks the delegator's own vote", async () => {
      const author = await user(0)
      const delegator = await user(250)
      const delegate = await user(100)
      const d = await rpc(server, delegator.accessToken, 'delegate_voting_power', { p_username: delegate.name })
      expect(d.status, d.text).toBe(200)
      // The proposal after the delegation: its snapshot takes the power delegated before it (supabase/schemas/governance.sql).
      const id = await proposal(author)
      expect(d.json).toMatchObject({ voting_power: 0, delegation: { delegate_id: delegate.id, delegate_name: delegate.name } })
      const overview = await rpc(server, delegate.accessToken, 'governance_overview')
      expect(overview.json).toMatchObject({ balance: 100, own_power: 80, delegated_power: 200, voting_power: 280 })
      expect((await vote(delegator, id)).json.message).toBe('delegated')
      const r = await vote(delegate, id, 'against')
      expect(r.json.vote).toMatchObject({ power: 280, delegators: [delegator.id] })
      // Undelegating afterwards does not let the same power vote twice.
      await rpc(server, delegator.accessToken, 'undelegate_voting_power')
      expect((await vote(delegator, id)).json.message).toBe('power_already_used')
      // Self-delegation and unknown users are refused.
      expect((await rpc(server, delegate.accessToken, 'delegate_voting_power', { p_username: delegate.name })).json.message).toBe(
        'self_delegation',
      )
      expect((await rpc(server, delegate.accessToken, 'delegate_voting_power', { p_username: 'nobody-here' })).json.message).toBe(
        'unknown_user',
      )
      // The community pool: the power abstains.
      const pool = await rpc(server, delegator.accessToken, 'delegate_voting_power', {})
      expect(pool.json).toMatchObject({ voting_power: 0, delegation: { delegate_id: null } })
    })

    it('a proposal past its end is closed by the server with the right result; voting on it is refused', async () => {
      const author = await user(0)
      const big = await user(500)
      const small = await user(100)
      const passed = await proposal(author)
      const rejected = await proposal(author)
      const noQuorum = await proposal(author)
      await vote(big, passed, 'for') // 400
      await vote(small, passed, 'against') // 80
      await vote(big, rejected, 'against')
      await vote(small, rejected, 'for')
      const tiny = await user(50) // 40 < quorum 100
      await vote(tiny, noQuorum, 'for')
      await q(
        "update public.proposals set created_at = now() - interval '8 days', ends_at = now() - interval '1 second' where id = any($1)",
        [[passed, rejected, noQuorum]],
      )
      const list = (await api(server, '/rest/v1/rpc/governance_proposals', { body: {} })).json as { id: string; status: string }[]
      const status = (id: string) => list.find((p) => p.id === id)?.status
      expect([status(passed), status(rejected), status(noQuorum)]).toEqual(['passed', 'rejected', 'rejected'])
      const late = await vote(await user(100), passed)
      expect(late.status).toBe(400)
      expect(late.json.message).toBe('proposal_closed')
      const history = await rpc(server, big.accessToken, 'my_votes')
      expect(history.json.map((h: { status: string; power: number }) => [h.status, h.power]).sort()).toEqual([
        ['passed', 400],
        ['rejected', 400],
      ])
      expect((await vote(big, '00000000-0000-4000-8000-000000000000')).json.message).toBe('unknown_proposal')
    })
  })
})
