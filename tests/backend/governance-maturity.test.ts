import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { listenFor } from './support/listening.ts'
import { ageAccount, listenHistory } from './support/trust.ts'

// Voting power matures with listening (supabase/schemas/governance.sql, governance_power): own power
// is floor(0.8 x votable CUBE x days / 30), days the distinct UTC days with credited listens in the
// last 180, at most 30. Attacked as an outsider would: ordinary accounts over the REST API, which is
// all a sybil farm has; superuser SQL only sets up history (the simulated past) and reads the tables.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

type Account = TestUser & { name: string }
let n = 0
/** A trusted account with listening on `days` past days (10 songs), its balance moved to `balance` through post_ledger. */
async function listener(days: number, balance: number): Promise<Account> {
  n += 1
  const name = `gm${n}x${Date.now() % 100000}`
  const u = await signUp(server, `${name}@example.com`, 'pass-word', name)
  await rpc(server, u.accessToken, 'init_user_tokens')
  await listenHistory(server, u.id, days)
  await setBalance(u, balance)
  return { ...u, name }
}
async function setBalance(u: TestUser, balance: number) {
  const [row] = await q<{ balance: number }>('select balance from public.user_tokens where user_id = $1', [u.id])
  const diff = balance - row!.balance
  if (diff !== 0)
    await q('select public.post_ledger($1::uuid, $2::int, $3, $4, $5)', [
      u.id,
      diff,
      diff > 0 ? 'claim' : 'remix',
      'test',
      `test-move:${u.id}:${crypto.randomUUID()}`,
    ])
}
const overview = async (u: TestUser) => (await rpc(server, u.accessToken, 'governance_overview')).json
async function proposal(author: TestUser): Promise<string> {
  const r = await rpc(server, author.accessToken, 'create_proposal', {
    p_title: 'Matured power',
    p_description: 'Who decides this?',
    p_category: 'community',
    p_ends_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    p_attempt_key: crypto.randomUUID(),
  })
  expect(r.status, r.text).toBe(200)
  return r.json.proposal.id as string
}
const snapshotOf = async (id: string, u: TestUser) =>
  (
    await q<{ own_power: number; power_days: number | null; voting_power: number; delegated_power: number }>(
      'select own_power::int, power_days, voting_power::int, delegated_power::int from public.proposal_power ' +
        'where proposal_id = $1 and user_id = $2',
      [id, u.id],
    )
  )[0]
const vote = (u: TestUser, id: string, choice = 'for') => rpc(server, u.accessToken, 'cast_vote', { p_proposal_id: id, p_choice: choice })

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  let author: Account
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    author = await listener(30, 10_000)
  }, 90_000)
  afterAll(() => stop?.())

  it('an account that only waited out the trust rule (3 listening days) votes 3/30 of its CUBE; 30 days or more vote all', async () => {
    const young = await listener(3, 1000)
    const established = await listener(30, 1000)
    const veteran = await listener(45, 1000)
    expect(await overview(young)).toMatchObject({ trusted: true, locked: 0, power_days: 3, own_power: 80, voting_power: 80 })
    expect(await overview(established)).toMatchObject({ trusted: true, power_days: 30, own_power: 800, voting_power: 800 })
    expect(await overview(veteran)).toMatchObject({ power_days: 30, own_power: 800 })

    const id = await proposal(author)
    expect(await snapshotOf(id, young)).toMatchObject({ own_power: 80, power_days: 3, voting_power: 80 })
    expect(await snapshotOf(id, established)).toMatchObject({ own_power: 800, power_days: 30, voting_power: 800 })
    expect((await vote(young, id)).json.vote).toMatchObject({ power: 80 })
    expect((await vote(established, id, 'against')).json.vote).toMatchObject({ power: 800 })
    const [p] = await q<{ votes_for: number; votes_against: number }>(
      'select votes_for::int, votes_against::int from public.proposals where id = $1',
      [id],
    )
    expect(p).toEqual({ votes_for: 80, votes_against: 800 })
  })

  it('ten sybils that waited out the trust rule do not outvote four established listeners with the same CUBE each', async () => {
    const family = await Promise.all(Array.from({ length: 4 }, () => listener(30, 200)))
    const sybils = await Promise.all(Array.from({ length: 10 }, () => listener(3, 200)))
    const id = await proposal(author)
    for (const u of family) expect((await vote(u, id, 'against')).json.vote.power).toBe(160)
    for (const u of sybils) expect((await vote(u, id, 'for')).json.vote.power).toBe(16)
    const [p] = await q<{ votes_for: number; votes_against: number }>(
      'select votes_for::int, votes_against::int from public.proposals where id = $1',
      [id],
    )
    // Without the maturing weight it was 1600 for and 640 against.
    expect(p).toEqual({ votes_for: 160, votes_against: 640 })
  })

  it('a day counts once however many listens it had, only within 180 days, and a listen credited today adds today', async () => {
    const u = await listener(3, 0)
    // 20 more credited listens on one day (4 days ago) and listens on 5 days more than 180 days ago.
    for (let i = 0; i < 20; i++)
      await q(
        'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key, created_at) ' +
          "values ($1::uuid, 1, 'listen', 'one-day', 'test-one-day:' || $1::text || ':' || $2, now() - interval '4 days')",
        [u.id, String(i)],
      )
    for (let i = 0; i < 5; i++)
      await q(
        'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key, created_at) ' +
          "values ($1::uuid, 1, 'listen', 'long-ago', 'test-old:' || $1::text || ':' || $2, now() - make_interval(days => 200 + $2::int))",
        [u.id, i],
      )
    await setBalance(u, 300)
    expect(await overview(u)).toMatchObject({ power_days: 4, own_power: 32 })
    // A real listen through the API, credited by the server today.
    const heard = await listenFor(server, u, 'neon-drift', 45, { interacted: true })
    expect(heard.credited).toBeGreaterThan(0)
    const after = await overview(u)
    expect(after.power_days).toBe(5)
    expect(after.own_power).toBe(Math.floor((0.8 * after.balance * 5) / 30))
  })

  it('delegated power is the delegator’s matured power, not its CUBE', async () => {
    const delegator = await listener(3, 1000)
    const delegate = await listener(30, 100)
    const d = await rpc(server, delegator.accessToken, 'delegate_voting_power', { p_username: delegate.name })
    expect(d.status, d.text).toBe(200)
    expect(await overview(delegate)).toMatchObject({ own_power: 80, delegated_power: 80, voting_power: 160 })
    const id = await proposal(author)
    expect(await snapshotOf(id, delegate)).toMatchObject({ own_power: 80, delegated_power: 80, voting_power: 160 })
    expect((await vote(delegate, id)).json.vote.power).toBe(160)
  })

  it('a trusted account with no listening in 180 days has no power, and is told why', async () => {
    n += 1
    const u = await signUp(server, `gm-old${n}x${Date.now() % 100000}@example.com`, 'pass-word', `gmold${n}x${Date.now() % 100000}`)
    await rpc(server, u.accessToken, 'init_user_tokens')
    // What listenHistory writes, 200 to 202 days ago: trusted for ever, but outside the window.
    for (let i = 0; i < 10; i++)
      await q(
        'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key, created_at) ' +
          "values ($1::uuid, 1, 'listen', $2, 'test-long-ago:' || $1::text || ':' || $2, now() - make_interval(days => $3::int))",
        [u.id, `old-song-${i}`, 200 + (i % 3)],
      )
    await q('update public.user_tokens set balance = balance + 10 where user_id = $1', [u.id])
    await ageAccount(server, u.id, 210)
    await setBalance(u, 500)
    expect(await overview(u)).toMatchObject({ trusted: true, power_days: 0, own_power: 0 })
    const id = await proposal(author)
    const r = await vote(u, id)
    expect(r.status).toBe(400)
    expect(r.json.message).toBe('insufficient_voting_power')
    expect(r.json.details).toMatch(/days you listened in the last 180 days \(full after 30\).*listened on 0/)
  })

  it('the client cannot claim listening days or power: no forged argument, table write, backdated play or private function', async () => {
    const u = await listener(3, 1000)
    const id = await proposal(author)
    const token = u.accessToken
    // Arguments the server does not take: no such function.
    expect((await rpc(server, token, 'cast_vote', { p_proposal_id: id, p_choice: 'for', p_power_days: 30 })).status).toBe(404)
    expect(
      (
        await rpc(server, token, 'create_proposal', {
          p_title: 'x',
          p_description: 'y',
          p_category: 'other',
          p_ends_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
          p_attempt_key: crypto.randomUUID(),
          p_power_days: 30,
        })
      ).status,
    ).toBe(404)
    // The computing functions are the server's own.
    for (const [name, args] of [
      ['governance_power', { p_votable: 1000, p_days: 30 }],
      ['governance_listening_days', { p_user: u.id }],
      ['governance_own_power', { p_user: u.id }],
      ['snapshot_proposal_power', { p_proposal_id: id }],
    ] as const) {
      const r = await rpc(server, token, name, args)
      expect(r.status, `${name}: ${r.text}`).toBeGreaterThanOrEqual(400)
    }
    // Writing the snapshot or the ledger directly.
    const patched = await api(server, `/rest/v1/proposal_power?proposal_id=eq.${id}&user_id=eq.${u.id}`, {
      method: 'PATCH',
      token,
      body: { power_days: 30, own_power: 800, voting_power: 800 },
    })
    expect(patched.status).toBeGreaterThanOrEqual(400)
    const inserted = await api(server, '/rest/v1/token_ledger', {
      token,
      body: Array.from({ length: 30 }, (_, i) => ({
        user_id: u.id,
        amount: 1,
        reason: 'listen',
        reference: 'forged',
        idempotency_key: `forged:${i}`,
        created_at: new Date(Date.now() - (i + 1) * 86_400_000).toISOString(),
      })),
    })
    expect(inserted.status).toBeGreaterThanOrEqual(400)
    // Offline plays dated on 20 past days: recorded in the history, credited nothing, no listening day.
    for (let i = 0; i < 20; i++)
      await rpc(server, token, 'listen_offline', {
        p_song_id: 'neon-drift',
        p_play_id: `backdated-${i}-${crypto.randomUUID()}`,
        p_played_at: new Date(Date.now() - (i + 1) * 86_400_000 + 3_600_000).toISOString(),
      })
    expect(await overview(u)).toMatchObject({ power_days: 3, own_power: 80 })
    expect(await snapshotOf(id, u)).toMatchObject({ own_power: 80, power_days: 3, voting_power: 80 })
    expect((await vote(u, id)).json.vote.power).toBe(80)
  })
})
