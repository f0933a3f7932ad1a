import { createClient, type RealtimePostgresChangesPayload } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { establishedListener } from './support/trust.ts'

// docs/security.md items 4 and 12, attacked through the data API with ordinary accounts:
//   4. moving a delegation after the first delegate voted must not let the same power count again;
//  12. a deleted account's username must not stay on its proposals (RPC, table, Realtime);
// and creating a proposal (it burns 100 CUBE) is idempotent per attempt, as publishing is.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function user(balance: number): Promise<TestUser & { name: string }> {
  n += 1
  const name = `ig${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name)
  await rpc(server, u.accessToken, 'init_user_tokens')
  // A trusted, established listener (supabase/schemas/trust.sql, governance.sql), so its whole balance votes.
  await establishedListener(server, u.id)
  await q('update public.user_tokens set balance = $2 where user_id = $1', [u.id, balance])
  return { ...u, name }
}
const vote = (u: TestUser, id: string, choice = 'for') => rpc(server, u.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: choice })
const delegate = (from: TestUser, to: { name: string } | null) =>
  rpc(server, from.accessToken, 'delegate_voting_power', { p_username: to ? to.name : null })

async function proposal(author: TestUser): Promise<string> {
  const rows = await q<{ id: string }>(
    "insert into public.proposals (author_id, author_name, title, description, category, ends_at) values ($1, 'x', 'T', " +
      "'D', 'other', now() + interval '3 days') returning id",
    [author.id],
  )
  return rows[0]!.id
}
const tally = async (id: string) =>
  Number(
    (await q<{ total: string }>('select (votes_for + votes_against)::text as total from public.proposals where id = $1', [id]))[0]!.total,
  )
/** How many votes on the proposal carried this user's power (their own vote or as a delegator). */
const uses = async (id: string, u: TestUser) =>
  Number(
    (
      await q<{ n: string }>(
        'select count(*)::text as n from public.votes where proposal_id = $1 and (user_id = $2 or $2 = any (delegators))',
        [id, u.id],
      )
    )[0]!.n,
  )

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 90_000)
  afterAll(() => stop?.())

  describe('re-delegation (item 4)', () => {
    it('delegating to B, B voting, re-delegating to C and C voting counts the delegator once: 240, not 320', async () => {
      const author = await user(0)
      const [a, b, c] = [await user(100), await user(100), await user(100)]
      expect((await delegate(a, b)).status).toBe(200)
      // Snapshot governance (supabase/schemas/governance.sql): the proposal counts the delegation made before it.
      const id = await proposal(author)
      expect((await vote(b, id)).json.vote).toMatchObject({ power: 160, delegators: [a.id] })
      expect((await delegate(a, c)).status).toBe(200)
      const second = await vote(c, id)
      expect(second.status, second.text).toBe(200)
      // C still votes with their own power, but A's was already cast through B.
      expect(second.json.vote).toMatchObject({ power: 80, delegators: [] })
      expect(await tally(id)).toBe(240)
      expect(await uses(id, a)).toBe(1)
    })

    it('after undelegating and delegating again, the power a delegate used is not carried by the next one', async () => {
      const author = await user(0)
      const [a, b, c, d] = [await user(100), await user(100), await user(100), await user(100)]
      await delegate(a, b)
      const id = await proposal(author) // after the first delegation, which its snapshot counts
      await vote(b, id)
      await rpc(server, a.accessToken, 'undelegate_voting_power')
      await delegate(a, c)
      await vote(c, id, 'against')
      await delegate(a, d)
      await vote(d, id)
      expect(await tally(id)).toBe(320)
      expect(await uses(id, a)).toBe(1)
    })

    it('racing re-delegations and votes across four delegates never count one unit of power twice', async () => {
      const author = await user(0)
      const a = await user(1000)
      const delegates = [await user(100), await user(100), await user(100), await user(100)]
      await delegate(a, delegates[0]!)
      const id = await proposal(author) // after the first delegation, which its snapshot counts
      await Promise.all(delegates.flatMap((d) => [delegate(a, d), vote(d, id)]))
      // Real power: 800 (A) + 4 x 80.
      expect(await tally(id)).toBeLessThanOrEqual(800 + 4 * 80)
      expect(await uses(id, a)).toBeLessThanOrEqual(1)
      const votes = await q<{ power: string; delegators: string[] }>(
        'select power::text as power, delegators from public.votes where proposal_id = $1',
        [id],
      )
      expect(votes.reduce((sum, v) => sum + Number(v.power), 0)).toBe(await tally(id))
    })
  })

  describe('a deleted author (item 12)', () => {
    it("the proposal no longer shows the deleted account's username: RPC, table and Realtime", async () => {
      const author = await user(100)
      const created = await rpc(server, author.accessToken, 'create_proposal', {
        p_title: 'Keep me anonymous',
        p_description: 'Then delete my account',
        p_category: 'other',
        p_ends_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        p_attempt_key: crypto.randomUUID(),
      })
      expect(created.status, created.text).toBe(200)
      const id = created.json.proposal.id as string
      expect(created.json.proposal.author_name).toBe(author.name)

      const watcher = await user(0)
      const client = createClient(server.url, server.keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      })
      client.realtime.setAuth(watcher.accessToken)
      const events: RealtimePostgresChangesPayload<Record<string, unknown>>[] = []
      const channel = client
        .channel(`proposal-${id}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'proposals', filter: `id=eq.${id}` }, (p) => events.push(p))
      await new Promise<void>((resolve, reject) =>
        channel.subscribe((status, error) =>
          status === 'SUBSCRIBED' ? resolve() : status !== 'CLOSED' && reject(error ?? new Error(status)),
        ),
      )
      try {
        const deleted = await rpc(server, author.accessToken, 'delete_my_account', { p_confirm_username: author.name })
        expect(deleted.status, deleted.text).toBe(200)

        const listed = (await api(server, '/rest/v1/rpc/governance_proposals', { body: {} })).json.find((p: { id: string }) => p.id === id)
        expect(listed).toMatchObject({ author_id: null, author_name: 'Deleted account' })
        const row = await api(server, `/rest/v1/proposals?id=eq.${id}&select=author_name`, { token: watcher.accessToken })
        expect(row.json).toEqual([{ author_name: 'Deleted account' }])
        expect(JSON.stringify(await api(server, '/rest/v1/proposals?select=*'))).not.toContain(author.name)

        const end = Date.now() + 5000
        while (!events.some((e) => e.eventType === 'UPDATE') && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
        const update = events.find((e) => e.eventType === 'UPDATE')
        expect(update?.new).toMatchObject({ author_name: 'Deleted account' })
        expect(JSON.stringify(events)).not.toContain(author.name)
      } finally {
        await client.removeAllChannels()
      }
    })

    it('an author name cannot be set on a proposal without an author', async () => {
      const author = await user(0)
      const id = await proposal(author)
      await expect(q("update public.proposals set author_id = null, author_name = 'someone' where id = $1", [id])).resolves.toBeDefined()
      expect((await q<{ author_name: string }>('select author_name from public.proposals where id = $1', [id]))[0]!.author_name).toBe(
        'Deleted account',
      )
    })
  })

  describe('creating a proposal once per attempt', () => {
    const attempt = (u: TestUser, key: string | undefined) =>
      rpc(server, u.accessToken, 'create_proposal', {
        p_title: 'Once',
        p_description: 'Double-clicked',
        p_category: 'other',
        p_ends_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        ...(key === undefined ? {} : { p_attempt_key: key }),
      })

    it('six concurrent calls with one attempt key: one proposal, one burn of 100, every answer the same proposal', async () => {
      const u = await user(250)
      const key = crypto.randomUUID()
      const answers = await Promise.all(Array.from({ length: 6 }, () => attempt(u, key)))
      for (const a of answers) expect(a.status, a.text).toBe(200)
      expect(new Set(answers.map((a) => a.json.proposal.id)).size).toBe(1)
      expect(answers.filter((a) => a.json.repeated === false).length).toBe(1)
      expect(await q("select amount from public.token_ledger where user_id = $1 and reason = 'proposal'", [u.id])).toEqual([
        { amount: -100 },
      ])
      expect((await q<{ n: string }>('select count(*)::text as n from public.proposals where author_id = $1', [u.id]))[0]!.n).toBe('1')
      expect(answers.every((a) => a.json.balance === 150)).toBe(true)
      // A new attempt is a new proposal.
      expect((await attempt(u, crypto.randomUUID())).json.balance).toBe(50)
    })

    it('a call without an attempt key is refused in words and burns nothing', async () => {
      const u = await user(200)
      const r = await attempt(u, undefined)
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({
        message: 'invalid_attempt_key',
        details: 'Each proposal needs an attempt key of 8 to 100 characters; reload the page and try again.',
      })
      expect(await q("select 1 from public.token_ledger where user_id = $1 and reason = 'proposal'", [u.id])).toEqual([])
    })
  })
})
