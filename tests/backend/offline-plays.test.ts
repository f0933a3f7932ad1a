import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { expectLedgerHolds, playId, startListen } from './support/listening.ts'
import { listenHistory } from './support/trust.ts'

// Offline and install (supabase/schemas/listening.sql): plays made offline are
// reported when the app is back online and the server's usual rules decide what they count as. A
// listen earns only for time the server measured, and nobody measured time that passed offline: an
// offline play is recorded as a play and credits nothing, whatever the client claims.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)

let n = 0
async function account(): Promise<TestUser> {
  n += 1
  const u = await signUp(server, `op${n}x${Date.now() % 100000}@example.com`)
  await rpc(server, u.accessToken, 'init_user_tokens')
  return u
}
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
const offline = (u: TestUser, song: string, key: string, playedAt = minutesAgo(10), extra: Record<string, unknown> = {}, from?: string) =>
  rpc(server, u.accessToken, 'listen_offline', { p_song_id: song, p_play_id: key, p_played_at: playedAt, ...extra }, from)
const plays = async (u: TestUser) =>
  Number((await q<{ n: string }>('select count(*) as n from public.user_listening_history where user_id = $1', [u.id]))[0]!.n)
const balance = async (u: TestUser) =>
  (await q<{ balance: number }>('select balance from public.user_tokens where user_id = $1', [u.id]))[0]!.balance

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
  }, 120_000)
  afterAll(() => stop?.())

  it('an offline play is recorded as a play at the time it was played and credits nothing', async () => {
    const u = await account()
    const before = await balance(u)
    const playedAt = minutesAgo(42)
    const r = await offline(u, 'neon-drift', playId('offline'), playedAt)
    expect(r.status, r.text).toBe(200)
    expect(r.json).toMatchObject({ recorded: true, credited: 0, reason: 'offline' })
    const [session] = await q<{
      outcome: string
      credited: number
      heard_seconds: string
      earning_seconds: string
      ended_at: string | null
    }>('select outcome, credited, heard_seconds::text, earning_seconds::text, ended_at from public.listening_sessions where user_id = $1', [
      u.id,
    ])
    expect(session).toMatchObject({ outcome: 'offline', credited: 0, heard_seconds: '0', earning_seconds: '0' })
    expect(session!.ended_at).not.toBeNull()
    const [history] = await q<{ song_id: string; seconds: number; listened_at: Date }>(
      'select song_id, seconds, listened_at from public.user_listening_history where user_id = $1',
      [u.id],
    )
    expect(history).toMatchObject({ song_id: 'neon-drift', seconds: 0 })
    expect(Math.abs(new Date(history!.listened_at).getTime() - Date.parse(playedAt))).toBeLessThan(1000)
    expect(await balance(u)).toBe(before)
    // The hourly pot counts server-measured seconds only: none here.
    const pot = (await rpc(server, u.accessToken, 'wallet_claim_status')).json as { listened_seconds: number }
    expect(pot.listened_seconds).toBe(0)
    await expectLedgerHolds(server, u)
  })

  it('a claimed duration or credit is ignored: the server takes the song and the time, nothing else', async () => {
    const u = await account()
    const r = await offline(u, 'neon-drift', playId('claims'), minutesAgo(5), { p_seconds: 600 })
    // PostgREST finds no function with that argument: the claim cannot even be sent.
    expect(r.status).toBe(404)
    const ok = await offline(u, 'neon-drift', playId('claims'))
    expect(ok.json).toMatchObject({ credited: 0 })
    await expectLedgerHolds(server, u)
  })

  it('one record per play: the same play reported 20 times at once is recorded once', async () => {
    const u = await account()
    const key = playId('raced')
    const answers = await Promise.all(Array.from({ length: 20 }, () => offline(u, 'orbital-haze', key)))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(answers.filter((a) => (a.json as { recorded: boolean }).recorded)).toHaveLength(1)
    expect(answers.filter((a) => (a.json as { reason: string }).reason === 'duplicate')).toHaveLength(19)
    expect(await plays(u)).toBe(1)
  })

  it('a play key a live session already has is not recorded again', async () => {
    const u = await account()
    const key = playId('live')
    await startListen(server, u, 'neon-drift', { play: key })
    expect((await offline(u, 'neon-drift', key)).json).toMatchObject({ recorded: false, reason: 'duplicate' })
  })

  it('at most 50 offline plays in 24 hours, raced: the cap holds', async () => {
    const u = await account()
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => offline(u, 'circuit-breaker', playId(`cap${i}`))))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const recorded = answers.filter((a) => (a.json as { recorded: boolean }).recorded).length
    expect(recorded).toBe(50)
    expect(answers.filter((a) => (a.json as { reason: string }).reason === 'offline_limit')).toHaveLength(10)
    expect(await plays(u)).toBe(50)
    await expectLedgerHolds(server, u)
  })

  it('a time in the future is refused in words; one over 7 days old is not recorded', async () => {
    const u = await account()
    const future = await offline(u, 'neon-drift', playId('future'), new Date(Date.now() + 3_600_000).toISOString())
    expect(future.status).toBe(400)
    expect(future.text).toContain('not in the future')
    const old = await offline(u, 'neon-drift', playId('old'), new Date(Date.now() - 8 * 86_400_000).toISOString())
    expect(old.json).toMatchObject({ recorded: false, reason: 'too_old' })
    const unknown = await offline(u, 'no-such-song', playId('unknown'))
    expect(unknown.json).toMatchObject({ recorded: false, reason: 'unknown_song' })
    const noKey = await offline(u, 'neon-drift', '')
    expect(noKey.status).toBe(400)
    expect(await plays(u)).toBe(0)
  })

  it('a visitor cannot report plays', async () => {
    const r = await api(server, '/rest/v1/rpc/listen_offline', {
      body: { p_song_id: 'neon-drift', p_play_id: 'visitor', p_played_at: minutesAgo(1) },
    })
    expect([401, 403]).toContain(r.status)
  })
  it('charts count people: one fresh account’s 50 offline plays move nothing; ten trusted listeners do, once per day', async () => {
    const song = `unheard-${database.toLowerCase()}-${Date.now()}`
    await q(
      'insert into public.songs (id, slug, title, artist, duration_seconds, reward, genre) ' +
        "values ($1, $1, 'Zz Unheard', 'Nobody', 120, 2, 'ambient')",
      [song],
    )
    type Entry = { id: string; plays: number }
    const chart = async () => {
      const r = await api(server, '/rest/v1/rpc/recommend_songs', { body: { p_mode: 'daily', p_limit: 10 } })
      expect(r.status, r.text).toBe(200)
      return (r.json as Entry[]).map(({ id, plays }) => ({ id, plays }))
    }
    const before = await chart()
    expect(before.map((e) => e.id)).not.toContain(song)

    const sybil = await account()
    const flood = await Promise.all(
      Array.from({ length: 50 }, (_, i) => offline(sybil, song, playId(`flood-${i}`), minutesAgo(1 + i / 60))),
    )
    expect(flood.every((r) => r.json.recorded === true)).toBe(true)
    expect(await chart()).toEqual(before)

    // Nine trusted listeners, three plays each: still fewer than ten people, nothing moves. Each
    // plays from an address of their own (ten accounts of one generation on one address are a ring).
    for (let i = 0; i < 9; i++) {
      const listener = await account()
      await listenHistory(server, listener.id)
      for (let k = 0; k < 3; k++)
        expect((await offline(listener, song, playId(`trusted-${i}-${k}`), minutesAgo(5 + k), {}, `127.0.6.${i + 1}`)).json.recorded).toBe(
          true,
        )
    }
    expect(await chart()).toEqual(before)

    // The tenth: the song enters the chart with one play per listener and day, the sybil's fifty not among them.
    const tenth = await account()
    await listenHistory(server, tenth.id)
    await offline(tenth, song, playId('trusted-10'), minutesAgo(3), {}, '127.0.6.10')
    expect((await chart())[0]).toEqual({ id: song, plays: 10 })
  }, 120_000)
})
