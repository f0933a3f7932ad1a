import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type Expectation, type RlsContext } from './support/rls-matrix.ts'
import {
  expectDailyCountersHold,
  expectLedgerHolds,
  listenFor,
  passTime,
  playId,
  report,
  startListen,
  type ListenAnswer,
} from './support/listening.ts'

// Listening and Creators (supabase/schemas/listening.sql): the server measures
// listening itself. A play is a server-side session; what earns is the server's own clock while the
// client says "playing", at most 90 s per gap between reports and at most the track; a song earns
// twice per listener and UTC day; own songs earn nothing; an hour without interaction stops earning;
// the hourly pot counts the same sessions; a credited listen of a published song pays its creator
// unless the listener is linked to them.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function account(ageDays = 0): Promise<TestUser> {
  n += 1
  const u = await signUp(server, `el${n}x${Date.now() % 100000}@example.com`)
  await rpc(server, u.accessToken, 'init_user_tokens')
  if (ageDays) await q('update auth.users set created_at = now() - make_interval(days => $2) where id = $1', [u.id, ageDays])
  return u
}
const status = async (u: TestUser) => (await rpc(server, u.accessToken, 'wallet_claim_status')).json as { listened_seconds: number }
const sessions = (u: TestUser) =>
  q<{ id: string; ended_at: string | null; heard_seconds: string; credited: number }>(
    'select id, ended_at, heard_seconds, credited from public.listening_sessions where user_id = $1 order by started_at',
    [u.id],
  )
const creatorCredits = async (u: TestUser) =>
  Number((await q<{ n: string }>("select count(*) as n from public.token_ledger where user_id = $1 and reason = 'creator'", [u.id]))[0]!.n)

/** An RPC call from another loopback address (127.0.0.x): the server sees a different client. */
async function rpcFrom(address: string, u: TestUser, name: string, args: Record<string, unknown>) {
  const r = await rpc(server, u.accessToken, name, args, address)
  expect(r.status, r.text).toBe(200)
  return r.json as ListenAnswer
}
/** A 35 s listen of `song` by `u`, sent from `address`. */
async function listenFrom(address: string, u: TestUser, song: string) {
  const start = await rpcFrom(address, u, 'listen_start', { p_song_id: song, p_play_id: playId(song) })
  let answer = start
  for (const step of [15, 15, 5]) {
    await passTime(server, start.session_id!, step)
    answer = await rpcFrom(address, u, 'listen_report', { p_session_id: start.session_id, p_playing: true })
  }
  return answer
}
/** A published song owned by `owner`, as publish_song leaves it (and the address it was published from). */
async function publishedSong(owner: TestUser, id: string, address: string) {
  await q(
    'insert into public.songs (id, title, artist, duration_seconds, reward, slug, owner_id, audio_url) ' +
      "values ($1, $1, 'Creator', 120, 2, $1, $2, $3)",
    [id, owner.id, `/storage/v1/object/public/published/${id}.wav`],
  )
  await q(
    'insert into public.account_clients (user_id, client_address) values ($1, $2) ' +
      'on conflict (user_id, client_address) do update set last_seen = now()',
    [owner.id, address],
  )
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await q(`insert into public.songs (id, title, artist, duration_seconds, reward, slug) values
      ('short-85', 'Short 85', 'Test', 85, 2, 'short-85'), ('long-600', 'Long 600', 'Test', 600, 2, 'long-600'),
      ('other-90', 'Other 90', 'Test', 90, 2, 'other-90'), ('rich-120', 'Rich 120', 'Test', 120, 5, 'rich-120')
      on conflict do nothing`)
  }, 90_000)
  afterAll(() => stop?.())

  it('no call takes a duration: a start and an immediate report earn nothing; 35 s of server time earn the reward', async () => {
    const u = await account()
    const declared = await rpc(server, u.accessToken, 'listen_start', { p_song_id: 'short-85', p_play_id: 'x', p_seconds: 86400 })
    expect(declared.status).toBe(404)
    const start = await startListen(server, u, 'short-85')
    expect(start).toMatchObject({ credited: 0, heard_seconds: 0, playing: true })
    expect(await report(server, u, start.session_id!)).toMatchObject({ credited: 0, reason: null })
    await passTime(server, start.session_id!, 20)
    expect(await report(server, u, start.session_id!)).toMatchObject({ credited: 0 })
    await passTime(server, start.session_id!, 15)
    expect(await report(server, u, start.session_id!)).toMatchObject({ credited: 2, reason: 'credited', balance: 102 })
    await expectLedgerHolds(server, u)
  })

  it('paused time does not count; one gap adds at most 90 s; the whole is at most the track', async () => {
    const u = await account()
    const s = await startListen(server, u, 'short-85')
    await passTime(server, s.session_id!, 10)
    expect((await report(server, u, s.session_id!, false)).heard_seconds).toBe(10)
    await passTime(server, s.session_id!, 600)
    expect((await report(server, u, s.session_id!, true)).heard_seconds).toBe(10)
    await passTime(server, s.session_id!, 3600)
    expect((await report(server, u, s.session_id!, true)).heard_seconds).toBe(85)
    const long = await startListen(server, u, 'long-600')
    await passTime(server, long.session_id!, 3600)
    expect((await report(server, u, long.session_id!)).heard_seconds).toBe(90)
  })

  it('one active session per user: starting another ends (and settles) the previous one', async () => {
    const u = await account()
    const first = await startListen(server, u, 'short-85')
    await passTime(server, first.session_id!, 40)
    const second = await startListen(server, u, 'other-90')
    const rows = await sessions(u)
    expect(rows.filter((r) => r.ended_at === null).map((r) => r.id)).toEqual([second.session_id])
    // The first was settled as it ended: its 40 s (within the 90 s grace) were credited.
    expect(rows.find((r) => r.id === first.session_id)).toMatchObject({ credited: 2 })
    // A report on an ended session changes nothing.
    await passTime(server, first.session_id!, 40)
    expect(await report(server, u, first.session_id!)).toMatchObject({ ended: true, heard_seconds: 40 })
  })

  it('played 1 s, paused, nothing credited: not after 39 s of pause, not when the next song starts, not on a late report', async () => {
    const u = await account()
    const s = await startListen(server, u, 'rich-120')
    await passTime(server, s.session_id!, 1)
    expect(await report(server, u, s.session_id!, false)).toMatchObject({ heard_seconds: 1, credited: 0, reason: null, balance: 100 })
    await passTime(server, s.session_id!, 39)
    expect(await report(server, u, s.session_id!, false)).toMatchObject({ heard_seconds: 1, credited: 0, balance: 100 })
    const next = await startListen(server, u, 'other-90')
    expect(next).toMatchObject({ credited: 0, balance: 100 })
    expect(next).not.toHaveProperty('previous')
    expect((await sessions(u)).find((r) => r.id === s.session_id)).toMatchObject({ credited: 0 })
    // A late "playing" on the ended session (a tab that woke up) adds nothing either.
    expect(await report(server, u, s.session_id!, true)).toMatchObject({ ended: true, heard_seconds: 1, credited: 0 })
    const ledger = await q<{ n: string }>('select count(*) as n from public.token_ledger where user_id = $1 and reason = $2', [
      u.id,
      'listen',
    ])
    expect(Number(ledger[0]!.n)).toBe(0)
    await expectLedgerHolds(server, u)
  })

  it("the next song's start names what the previous session earned when the start settled it", async () => {
    const u = await account()
    const first = await startListen(server, u, 'rich-120')
    await passTime(server, first.session_id!, 25)
    expect(await report(server, u, first.session_id!)).toMatchObject({ credited: 0, reason: null })
    // Skipped after 35 s in all: the credit happens in the next start, and its answer says so.
    await passTime(server, first.session_id!, 10)
    const second = (await startListen(server, u, 'other-90')) as ListenAnswer & { previous?: Record<string, unknown> }
    expect(second).toMatchObject({ credited: 0, reason: null, balance: 105 })
    expect(second.previous).toEqual({
      session_id: first.session_id,
      song_id: 'rich-120',
      heard_seconds: 35,
      credited: 5,
      reason: 'credited',
    })
    // A previous session decided before the start is not news again.
    await passTime(server, second.session_id!, 40)
    expect(await report(server, u, second.session_id!)).toMatchObject({ credited: 2 })
    const third = (await startListen(server, u, 'short-85')) as ListenAnswer & { previous?: unknown }
    expect(third.previous).toBeUndefined()
    await expectLedgerHolds(server, u)
  })

  it('20 concurrent starts leave one active session; 20 concurrent reports credit once; balance = ledger', async () => {
    const u = await account()
    await Promise.all(Array.from({ length: 20 }, (_, i) => startListen(server, u, i % 2 ? 'short-85' : 'other-90')))
    const active = (await sessions(u)).filter((r) => r.ended_at === null)
    expect(active.length).toBe(1)
    await passTime(server, active[0]!.id, 40)
    const answers = await Promise.all(Array.from({ length: 20 }, () => report(server, u, active[0]!.id)))
    expect(new Set(answers.map((a) => a.credited))).toEqual(new Set([2]))
    expect(
      Number(
        (await q<{ n: string }>("select count(*) as n from public.token_ledger where user_id = $1 and reason = 'listen'", [u.id]))[0]!.n,
      ),
    ).toBe(1)
    await expectLedgerHolds(server, u)
    await expectDailyCountersHold(server, u)
  })

  it('the same play started twice is one session (a retried start is idempotent)', async () => {
    const u = await account()
    const play = playId('same')
    const [a, b] = await Promise.all([startListen(server, u, 'short-85', { play }), startListen(server, u, 'short-85', { play })])
    expect(a.session_id).toBe(b.session_id)
  })

  it('a song earns at most twice per listener and UTC day; other songs still earn', async () => {
    const u = await account()
    expect((await listenFor(server, u, 'short-85', 45)).reason).toBe('credited')
    expect((await listenFor(server, u, 'short-85', 45)).reason).toBe('credited')
    expect(await listenFor(server, u, 'short-85', 45)).toMatchObject({ credited: 0, reason: 'song_limit' })
    expect((await listenFor(server, u, 'other-90', 45)).reason).toBe('credited')
    await expectLedgerHolds(server, u)
    await expectDailyCountersHold(server, u)
  })

  it('the daily cap of 20 credited listens stays', async () => {
    const u = await account()
    await q('update public.user_tokens set listens_today = 20 where user_id = $1', [u.id])
    expect(await listenFor(server, u, 'other-90', 45)).toMatchObject({ credited: 0, reason: 'daily_cap', cap_reached: true })
  })

  it('listening pays at most 50 CUBE a day: the listen that reaches it pays the rest once (raced), later ones nothing', async () => {
    const u = await account()
    // 47 CUBE of listening already today (through the one posting function, so balance = ledger).
    await q("select public.post_ledger($1::uuid, 47, 'listen', 'earlier-today', $2)", [u.id, `seed:${u.id}`])
    const before = (await q<{ listens_today: number }>('select listens_today from public.user_tokens where user_id = $1', [u.id]))[0]!
    // The listen that reaches the cap, reported 20 times at once: it pays the rest (3 of its 5) once.
    const session = (await startListen(server, u, 'rich-120')).session_id!
    await passTime(server, session, 45)
    const answers = await Promise.all(Array.from({ length: 20 }, () => report(server, u, session)))
    expect(new Set(answers.map((a) => a.credited))).toEqual(new Set([3]))
    expect(answers.every((a) => a.reason === 'credited')).toBe(true)
    expect(await listenFor(server, u, 'other-90', 45)).toMatchObject({ credited: 0, reason: 'cube_cap' })
    const after = (await q<{ listens_today: number }>('select listens_today from public.user_tokens where user_id = $1', [u.id]))[0]!
    expect(after.listens_today).toBe(before.listens_today + 1)
    const listened = await q<{ n: string }>(
      "select coalesce(sum(amount), 0) as n from public.token_ledger where user_id = $1 and reason = 'listen'",
      [u.id],
    )
    expect(Number(listened[0]!.n)).toBe(50)
    await expectLedgerHolds(server, u)
    await expectDailyCountersHold(server, u)
  })

  it('listening to your own published song earns nothing (and pays you nothing as its creator)', async () => {
    const creator = await account(3)
    await publishedSong(creator, 'own-song', '10.9.9.9')
    expect(await listenFor(server, creator, 'own-song', 45)).toMatchObject({ credited: 0, reason: 'own_song' })
    expect(await creatorCredits(creator)).toBe(0)
  })

  it('after an hour without interaction the music plays on but earns nothing until the listener answers', async () => {
    const u = await account()
    await q("update public.user_tokens set last_interaction_at = now() - interval '61 minutes' where user_id = $1", [u.id])
    // The queue moved on by itself (no interaction): 45 s heard, nothing earned, the client is asked.
    const idle = await listenFor(server, u, 'other-90', 45, { interacted: false })
    expect(idle).toMatchObject({ credited: 0, reason: 'inactive', needs_interaction: true, heard_seconds: 45 })
    expect((await status(u)).listened_seconds).toBe(0)
    // "Still listening?" answered: from now on the same session earns (time heard while idle does not count).
    expect(await rpc(server, u.accessToken, 'still_listening')).toMatchObject({ status: 200 })
    await passTime(server, idle.session_id!, 15)
    expect((await report(server, u, idle.session_id!)).credited).toBe(0)
    await passTime(server, idle.session_id!, 15)
    expect(await report(server, u, idle.session_id!)).toMatchObject({ credited: 2, needs_interaction: false })
    expect((await status(u)).listened_seconds).toBe(30)
  })

  it('an interaction sent with a heartbeat counts for the gap it happened in, and earning resumes', async () => {
    const u = await account()
    await q("update public.user_tokens set last_interaction_at = now() - interval '2 hours' where user_id = $1", [u.id])
    const s = await startListen(server, u, 'other-90', { interacted: false })
    await passTime(server, s.session_id!, 35)
    expect(await report(server, u, s.session_id!)).toMatchObject({ credited: 0, reason: 'inactive', needs_interaction: true })
    await passTime(server, s.session_id!, 35)
    expect(await report(server, u, s.session_id!, true, { p_interacted: true })).toMatchObject({ credited: 2, needs_interaction: false })
    expect((await status(u)).listened_seconds).toBe(35)
  })

  it("the hourly pot counts the server's earning seconds of credited listens only", async () => {
    const u = await account()
    await listenFor(server, u, 'long-600', 120)
    await listenFor(server, u, 'short-85', 20) // below the qualifying time: not credited
    expect((await status(u)).listened_seconds).toBe(120)
  })

  it('a visitor cannot listen; nobody can report on another account’s session', async () => {
    const u = await account()
    const other = await account()
    const s = await startListen(server, u, 'short-85')
    expect((await api(server, '/rest/v1/rpc/listen_start', { body: { p_song_id: 'short-85', p_play_id: 'v' } })).status).toBe(401)
    const foreign = await rpc(server, other.accessToken, 'listen_report', { p_session_id: s.session_id, p_playing: true })
    expect(foreign.status).toBe(404)
    expect(foreign.json.message).toBe('unknown_session')
    // Sessions are readable by their owner only, and never writable through the API.
    const path = `/rest/v1/listening_sessions?select=id,heard_seconds&id=eq.${s.session_id}`
    expect((await api(server, path, { token: other.accessToken })).json).toEqual([])
    expect((await api(server, path, { token: u.accessToken })).json).toEqual([{ id: s.session_id, heard_seconds: 0 }])
    const write = await api(server, `/rest/v1/listening_sessions?id=eq.${s.session_id}`, {
      method: 'PATCH',
      token: u.accessToken,
      body: { heard_seconds: 85 },
    })
    expect(write.status).toBeGreaterThanOrEqual(400)
    expect((await api(server, '/rest/v1/account_clients', { token: u.accessToken })).status).toBeGreaterThanOrEqual(400)
  })

  describe('creators', () => {
    it('a credited listen of a published song pays its creator 1 CUBE (ledger reason creator), shown per song', async () => {
      const creator = await account(3)
      const listener = await account(3)
      await publishedSong(creator, `paid-${database.toLowerCase()}`, '10.1.1.1')
      expect(await listenFrom('127.0.0.2', listener, `paid-${database.toLowerCase()}`)).toMatchObject({ credited: 2 })
      expect(await creatorCredits(creator)).toBe(1)
      const earnings = (await rpc(server, creator.accessToken, 'my_creator_earnings')).json
      expect(earnings).toMatchObject({ total: 1, today: 1, per_listen: 1, daily_cap: 50 })
      expect(earnings.songs).toEqual([expect.objectContaining({ song_id: `paid-${database.toLowerCase()}`, listens: 1, cube: 1 })])
      await expectLedgerHolds(server, creator, listener)
    })

    it('linked listeners pay nothing: the same client address as the creator, or an account under a day old', async () => {
      const creator = await account(3)
      await publishedSong(creator, `linked-${database.toLowerCase()}`, '127.0.0.3')
      const sameClient = await account(3)
      expect((await listenFrom('127.0.0.3', sameClient, `linked-${database.toLowerCase()}`)).credited).toBe(2)
      const fresh = await account(0)
      expect((await listenFrom('127.0.0.4', fresh, `linked-${database.toLowerCase()}`)).credited).toBe(2)
      expect(await creatorCredits(creator)).toBe(0)
      // The listener's address is what the server saw, not what the client says it is.
      const forged = await account(3)
      const start = await rpc(server, forged.accessToken, 'listen_start', { p_song_id: 'short-85', p_play_id: playId() })
      expect(start.status).toBe(200)
      const seen = await q<{ client_address: string }>('select client_address from public.listening_sessions where user_id = $1', [
        forged.id,
      ])
      expect(seen[0]!.client_address).toBe('127.0.0.1')
      const spoof = await api(server, '/rest/v1/rpc/listen_start', {
        token: forged.accessToken,
        body: { p_song_id: 'other-90', p_play_id: playId() },
        headers: { 'X-Forwarded-For': '10.1.1.1', 'CF-Connecting-IP': '10.1.1.1' },
      })
      expect(spoof.status).toBe(200)
      const addresses = await q<{ client_address: string }>(
        'select distinct client_address from public.listening_sessions where user_id = $1',
        [forged.id],
      )
      expect(addresses.map((a) => a.client_address)).toEqual(['127.0.0.1'])
    })

    it("the creator's daily cap holds when many listeners finish at once", async () => {
      const creator = await account(3)
      await publishedSong(creator, `capped-${database.toLowerCase()}`, '10.2.2.2')
      // 48 creator credits already today (with the balance they moved).
      await q(
        'insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key) ' +
          "select $1, 1, 'creator', 'earlier', 'earlier:' || $2 || ':' || g from generate_series(1, 48) g",
        [creator.id, creator.id],
      )
      await q('update public.user_tokens set balance = balance + 48 where user_id = $1', [creator.id])
      const listeners = await Promise.all(Array.from({ length: 6 }, () => account(3)))
      const answers = await Promise.all(listeners.map((l, i) => listenFrom(`127.0.1.${i + 1}`, l, `capped-${database.toLowerCase()}`)))
      expect(answers.every((a) => a.credited === 2)).toBe(true)
      expect(await creatorCredits(creator)).toBe(50)
      await expectLedgerHolds(server, creator, ...listeners)
    })
  })
})

describe('RLS of the listening tables', () => {
  let ctx: RlsContext
  let session = ''
  const hidden: Expectation = {
    anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
    owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
    other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  }
  const noop = async () => {}
  beforeAll(async () => {
    server = await startTestServer()
    const owner = await account()
    const other = await account()
    ctx = rlsContext(server, owner, other)
    session = (await startListen(server, owner, 'neon-drift')).session_id!
    await ctx.q("insert into public.account_clients (user_id, client_address) values ($1, '10.3.3.3')", [owner.id])
  }, 90_000)
  afterAll(() => server?.close())
  rlsMatrixTests(
    {
      listening_sessions: {
        target: () => `select=id,heard_seconds&id=eq.${session}`,
        insert: ({ owner: { id } }) => ({ user_id: id, play_key: 'forged', song_id: 'neon-drift', duration_seconds: 85, reward: 500 }),
        update: { heard_seconds: 85, credited: 500 },
        inserted: (x) => x.exists("select 1 from public.listening_sessions where play_key = 'forged'"),
        untouched: (x) => x.exists('select 1 from public.listening_sessions where id = $1 and credited = 0', [session]),
        reset: noop,
        expect: readOnlyOwn,
      },
      account_clients: {
        target: ({ owner: { id } }) => `user_id=eq.${id}`,
        insert: ({ owner: { id } }) => ({ user_id: id, client_address: '10.4.4.4' }),
        update: { client_address: '10.5.5.5' },
        inserted: (x) => x.exists("select 1 from public.account_clients where client_address = '10.4.4.4'"),
        untouched: (x) => x.exists("select 1 from public.account_clients where user_id = $1 and client_address = '10.3.3.3'", [x.owner.id]),
        reset: noop,
        expect: hidden,
      },
    },
    () => ctx,
  )
})
