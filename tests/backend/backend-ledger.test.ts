import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { listenFor, passTime, playId, report, startListen } from './support/listening.ts'

// The server alone decides CUBE: these drive the HTTP server with many users and hundreds of
// concurrent calls and then check the tables directly.

const USERS = 20
const REWARD: Record<string, number> = {
  'neon-drift': 2,
  'low-tide-memory': 2,
  'circuit-breaker': 3,
  'rainy-terminal': 2,
  'orbital-haze': 5,
}
const SONGS = Object.keys(REWARD)

let server: TestServer
let users: TestUser[]
type ListenAnswer = {
  credited: number
  balance: number
  daily_earned: number
  listens_today: number
  daily_cap: number
  cap_reached: boolean
  reason: string | null
}

/** A listen of `seconds` of server time (the server measures; the test moves its clock). */
const listen = (user: TestUser, song: string, seconds: number) => listenFor(server, user, song, seconds) as Promise<ListenAnswer>

/** Each user's active session (one per user). */
const activeSessions = async () =>
  new Map(
    (await sql<{ user_id: string; id: string }>(server, 'select user_id, id from public.listening_sessions where ended_at is null')).map(
      (r) => [r.user_id, r.id],
    ),
  )

/** The invariants that must hold after anything. */
async function checkInvariants() {
  const rows = await sql<{
    user_id: string
    balance: number
    ledger: string
    listens_today: number
    welcomes: string
    listen_rows_today: string
  }>(
    server,
    `select t.user_id, t.balance, t.listens_today,
            (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)::text as ledger,
            (select count(*) from public.token_ledger l where l.user_id = t.user_id and l.reason = 'welcome')::text as welcomes,
            (select count(*) from public.token_ledger l where l.user_id = t.user_id and l.reason = 'listen'
               and (l.created_at at time zone 'utc')::date = t.day)::text as listen_rows_today
       from public.user_tokens t`,
  )
  expect(rows.length).toBeGreaterThanOrEqual(USERS)
  for (const r of rows) {
    expect(String(r.balance), `balance of ${r.user_id}`).toBe(r.ledger)
    expect(r.balance).toBeGreaterThanOrEqual(0)
    expect(r.listens_today).toBeLessThanOrEqual(20)
    expect(Number(r.listen_rows_today)).toBeLessThanOrEqual(20)
    expect(r.welcomes).toBe('1')
  }
  const negative = await sql(server, 'select 1 from public.user_tokens where balance < 0')
  expect(negative).toEqual([])
}

beforeAll(async () => {
  server = await startTestServer()
  users = []
  for (let i = 0; i < USERS; i++) users.push(await signUp(server, `listener${i}@example.com`))
}, 60_000)
afterAll(() => server?.close())

describe('CUBE ledger through the HTTP server', () => {
  it('50 concurrent init calls (function routes and rpc mixed) give the welcome bonus exactly once', async () => {
    const user = users[0]!
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 3 === 0
        ? api(server, '/functions/v1/init-user-tokens', { method: 'POST', token: user.accessToken })
        : i % 3 === 1
          ? api(server, '/api/init-user-tokens', { method: 'POST', token: user.accessToken })
          : rpc(server, user.accessToken, 'init_user_tokens'),
    )
    const answers = await Promise.all(calls)
    for (const a of answers) {
      expect(a.status, a.text).toBe(200)
      const wallet = 'wallet' in a.json ? a.json.wallet : a.json
      expect(wallet).toEqual({ balance: 100, daily_earned: 0 })
    }
    const ledger = await sql(server, 'select amount, reason from public.token_ledger where user_id = $1', [user.id])
    expect(ledger).toEqual([{ amount: 100, reason: 'welcome' }])
    await Promise.all(users.map((u) => rpc(server, u.accessToken, 'init_user_tokens')))
    await checkInvariants()
  })

  it('below the threshold and unknown songs credit nothing and leave no history', async () => {
    const user = users[1]!
    expect(await listen(user, 'neon-drift', 29)).toMatchObject({ credited: 0, balance: 100, reason: null })
    expect(await startListen(server, user, 'no-such-song')).toMatchObject({ credited: 0, session_id: null, reason: 'unknown_song' })
    expect(await sql(server, 'select 1 from public.user_listening_history where user_id = $1', [user.id])).toEqual([])
    const bad = await rpc(server, user.accessToken, 'listen_start', { p_song_id: 'neon-drift', p_play_id: '' })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toBe('invalid_play_id')
  })

  it('a listen qualifies at 30 s or half the track, whichever is less', async () => {
    await sql(
      server,
      "insert into public.songs (id, title, artist, duration_seconds, reward, slug) values ('short-loop', 'Short Loop', " +
        "'Test', 20, 4, 'short-loop') on conflict do nothing",
    )
    const user = users[2]!
    expect(await listen(user, 'short-loop', 9)).toMatchObject({ credited: 0, reason: null })
    expect(await listen(user, 'short-loop', 10)).toMatchObject({
      credited: 4,
      balance: 104,
      reason: 'credited',
      listens_today: 1,
      daily_earned: 4,
    })
    expect(await listen(user, 'neon-drift', 30)).toMatchObject({ credited: 2, balance: 106, reason: 'credited' })
    const history = await sql(server, 'select song_id, seconds from public.user_listening_history where user_id = $1 order by id', [
      user.id,
    ])
    expect(history).toEqual([
      { song_id: 'short-loop', seconds: 10 },
      { song_id: 'neon-drift', seconds: 30 },
    ])
  })

  it('200 concurrent starts and reports from 20 users: one session and one credit each', async () => {
    await Promise.all(
      users.flatMap((user, u) => Array.from({ length: 10 }, (_, i) => startListen(server, user, SONGS[(u + i) % SONGS.length]!))),
    )
    // Read after the starts: a start ends the user's earlier session, which is credited for the
    // server time it really ran (user 1's 29 s listen crosses 30 s on a slow machine).
    const before = new Map(
      (await sql<{ user_id: string; balance: number }>(server, 'select user_id, balance from public.user_tokens')).map((r) => [
        r.user_id,
        r.balance,
      ]),
    )
    const active = await activeSessions()
    for (const user of users) expect(active.has(user.id), user.email).toBe(true)
    await Promise.all(users.map((user) => passTime(server, active.get(user.id)!, 45)))
    const results = await Promise.all(
      users.flatMap((user) => Array.from({ length: 10 }, () => report(server, user, active.get(user.id)!).then((a) => ({ user, a })))),
    )
    for (const user of users) {
      const mine = results.filter((r) => r.user === user).map((r) => r.a)
      const credited = new Set(mine.map((a) => a.credited))
      expect(credited.size, user.email).toBe(1)
      const amount = [...credited][0]!
      expect(amount).toBeGreaterThan(0)
      const [row] = await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [user.id])
      expect(row!.balance).toBe(before.get(user.id)! + amount)
    }
    await checkInvariants()
  })

  it('a replayed play (same play key) is one session: never credited twice, even much later or raced 20 times', async () => {
    const user = users[3]!
    const play = playId('replayed')
    const first = await startListen(server, user, 'orbital-haze', { play })
    await passTime(server, first.session_id!, 40)
    expect(await report(server, user, first.session_id!)).toMatchObject({ credited: 5, reason: 'credited' })
    await passTime(server, first.session_id!, 3600)
    const replays = await Promise.all(Array.from({ length: 20 }, () => startListen(server, user, 'orbital-haze', { play })))
    expect(replays.every((a) => a.session_id === first.session_id && a.credited === 5)).toBe(true)
    const rows = await sql(server, 'select 1 from public.token_ledger where idempotency_key = $1', [`listen:${first.session_id}`])
    expect(rows.length).toBe(1)
    await checkInvariants()
  })

  it('the daily cap of 20 credited listens holds under 200 concurrent calls per round', async () => {
    // Start every wallet near the cap (setup via superuser SQL; the ledger is untouched, so
    // balance == sum(ledger) still holds).
    await sql(server, 'update public.user_tokens set listens_today = 18')
    for (let round = 0; round < 3; round++) {
      // A song nobody has played today, so only the daily cap can refuse it.
      const song = `cap-round-${round}`
      await sql(
        server,
        'insert into public.songs (id, title, artist, duration_seconds, reward, slug) ' +
          "values ($1, $1, 'Test', 120, 2, $1) on conflict do nothing",
        [song],
      )
      await Promise.all(users.map((user) => startListen(server, user, song)))
      const active = await activeSessions()
      await Promise.all(users.map((user) => passTime(server, active.get(user.id)!, 40)))
      const answers = await Promise.all(
        users.flatMap((user) => Array.from({ length: 10 }, () => report(server, user, active.get(user.id)!))),
      )
      for (const a of answers) {
        expect(a.listens_today).toBeLessThanOrEqual(20)
        expect(a.daily_cap).toBe(20)
      }
      // Every report of a credited session says so; the ledger has one row per session.
      expect(answers.filter((a) => a.credited > 0).length).toBe(round < 2 ? USERS * 10 : 0)
      const [rows] = await sql<{ n: string }>(
        server,
        "select count(*)::text as n from public.token_ledger where reason = 'listen' and reference = $1",
        [song],
      )
      expect(Number(rows!.n)).toBe(round < 2 ? USERS : 0)
      if (round === 2) expect(answers.every((a) => a.reason === 'daily_cap' && a.cap_reached)).toBe(true)
    }
    const counters = await sql<{ listens_today: number }>(server, 'select distinct listens_today from public.user_tokens')
    expect(counters).toEqual([{ listens_today: 20 }])
    // Capped listens are still history (plays), with no earning seconds.
    const history = await sql<{ n: string }>(
      server,
      "select count(*)::text as n from public.user_listening_history where song_id = 'cap-round-2' and seconds = 0",
    )
    expect(Number(history[0]!.n)).toBe(USERS)
    await checkInvariants()
  })

  it('the daily counters start again on a new UTC day', async () => {
    const user = users[4]!
    await sql(server, 'update public.user_tokens set day = day - 1 where user_id = $1', [user.id])
    const answer = await listen(user, 'orbital-haze', 31)
    expect(answer).toMatchObject({ credited: 5, listens_today: 1, daily_earned: 5, cap_reached: false, reason: 'credited' })
    const wallet = await api(server, '/rest/v1/user_tokens?select=day,listens_today', { token: user.accessToken })
    expect(wallet.json).toEqual([{ day: new Date().toISOString().slice(0, 10), listens_today: 1 }])
    await checkInvariants()
  })

  it('post_ledger counts a listen in the daily counters in the same write, and nothing else there', async () => {
    const user = users[4]!
    const counters = () =>
      sql<{ balance: number; listens_today: number; daily_earned: number }>(
        server,
        'select balance, listens_today, daily_earned from public.user_tokens where user_id = $1',
        [user.id],
      ).then((rows) => rows[0]!)
    const before = await counters()
    await sql(server, "select public.post_ledger($1::uuid, 3, 'comment', 'c', 'counters-test:comment:' || $1::text)", [user.id])
    await sql(server, "select public.post_ledger($1::uuid, -2, 'remix', 'r', 'counters-test:remix:' || $1::text)", [user.id])
    expect(await counters()).toEqual({ ...before, balance: before.balance + 1 })
    await sql(server, "select public.post_ledger($1::uuid, 4, 'listen', 'l', 'counters-test:listen:' || $1::text)", [user.id])
    expect(await counters()).toEqual({
      balance: before.balance + 5,
      listens_today: before.listens_today + 1,
      daily_earned: before.daily_earned + 4,
    })
    await checkInvariants()
  })

  it('spend_tokens: 50 racing debits never overdraw; a replay with the same reference debits once', async () => {
    const user = users[5]!
    const [start] = await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [user.id])
    const amount = 10
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        rpc(server, user.accessToken, 'spend_tokens', { p_amount: amount, p_reason: 'mint', p_ref: `nft-${i}` }),
      ),
    )
    const ok = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status !== 200)
    expect(ok.length).toBe(Math.floor(start!.balance / amount))
    for (const r of refused) {
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({ code: 'P0001', message: 'insufficient_balance' })
    }
    const [after] = await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [user.id])
    expect(after!.balance).toBe(start!.balance % amount)
    const replay = await rpc(server, user.accessToken, 'spend_tokens', { p_amount: amount, p_reason: 'mint', p_ref: 'nft-0' })
    expect(replay.status).toBe(200)
    expect(replay.json).toEqual({ balance: after!.balance })
    for (const bad of [
      { p_amount: 0, p_reason: 'mint', p_ref: 'x' },
      { p_amount: 1, p_reason: 'welcome', p_ref: 'x' },
      { p_amount: 1, p_reason: 'mint', p_ref: '' },
    ]) {
      expect((await rpc(server, user.accessToken, 'spend_tokens', bad)).status).toBe(400)
    }
    await checkInvariants()
  })

  it('nobody writes wallets or the ledger directly, and the ledger is append-only even for the owner role', async () => {
    const user = users[6]!
    const patch = await api(server, `/rest/v1/user_tokens?user_id=eq.${user.id}`, {
      method: 'PATCH',
      token: user.accessToken,
      body: { balance: 100000 },
    })
    expect(patch.status).toBe(403)
    const forged = await api(server, '/rest/v1/token_ledger', {
      token: user.accessToken,
      body: { user_id: user.id, amount: 5000, reason: 'claim', idempotency_key: 'x' },
    })
    expect(forged.status).toBe(403)
    await expect(sql(server, 'update public.token_ledger set amount = 1000 where user_id = $1', [user.id])).rejects.toThrow(/append-only/)
    await expect(sql(server, 'delete from public.token_ledger where user_id = $1', [user.id])).rejects.toThrow(/append-only/)
    await expect(sql(server, 'update public.user_tokens set listens_today = 21 where user_id = $1', [user.id])).rejects.toThrow(/check/)
    await checkInvariants()
  })

  it('anon cannot call the CUBE functions at all', async () => {
    const ARGS: Record<string, object> = {
      init_user_tokens: {},
      is_admin: {},
      listen_start: { p_song_id: 'neon-drift', p_play_id: 'anon' },
      spend_tokens: { p_amount: 1, p_reason: 'mint', p_ref: 'x' },
    }
    for (const name of ['init_user_tokens', 'listen_start', 'spend_tokens', 'is_admin']) {
      const r = await api(server, `/rest/v1/rpc/${name}`, { method: 'POST', body: ARGS[name] })
      expect(r.status, name).toBe(401)
    }
    expect((await api(server, '/functions/v1/init-user-tokens', { method: 'POST' })).status).toBe(401)
  })
})
