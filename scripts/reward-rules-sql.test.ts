import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRole, createUser, migratedPglite } from './support/migrated-pglite.ts'

// public.reward_rules() is the one statement of the listening rules; the client shows and applies
// what it answers. Against the real SQL (every migration applied to PGlite), the listening sessions
// (listen_start, listen_report) must enforce exactly those figures.

interface ListenRules {
  qualify_seconds: number
  qualify_fraction: number
  daily_cap: number
  default_reward: number
  song_daily_limit: number
  daily_cube_cap: number
  inactive_after_seconds: number
  heartbeat_grace_seconds: number
}
interface ListenAnswer {
  session_id: string | null
  credited: number
  listens_today: number
  daily_cap: number
  cap_reached: boolean
  reason: string | null
}

let db: PGlite
let rules: ListenRules
let play = 0

/** A play of `seconds` of server time: the session's clock is moved back (superuser test setup), then reported. */
async function listen(userId: string, songId: string, seconds: number): Promise<ListenAnswer> {
  const start = await asRole(
    db,
    userId,
    async (tx) => (await tx.query<{ a: ListenAnswer }>('select public.listen_start($1, $2) as a', [songId, `play-${++play}`])).rows[0]!.a,
  )
  await db.query('update public.listening_sessions set last_report_at = last_report_at - make_interval(secs => $2) where id = $1', [
    start.session_id,
    seconds,
  ])
  return asRole(
    db,
    userId,
    async (tx) => (await tx.query<{ a: ListenAnswer }>('select public.listen_report($1, true) as a', [start.session_id])).rows[0]!.a,
  )
}

beforeAll(async () => {
  db = await migratedPglite()
  rules = (await asRole(db, null, (tx) => tx.query<{ r: { listen: ListenRules } }>('select public.reward_rules() as r'))).rows[0]!.r.listen
}, 120_000)
afterAll(() => db?.close())

describe('reward_rules() states what the listening sessions enforce', () => {
  it('answers every listening rule as a positive number, to visitors and to signed-in users alike', async () => {
    for (const key of [
      'qualify_seconds',
      'qualify_fraction',
      'daily_cap',
      'default_reward',
      'song_daily_limit',
      'inactive_after_seconds',
      'heartbeat_grace_seconds',
    ] as const) {
      expect(typeof rules[key], key).toBe('number')
      expect(rules[key], key).toBeGreaterThan(0)
    }
    const user = await createUser(db, 'rules-reader@example.com')
    const asUser = (await asRole(db, user, (tx) => tx.query<{ r: { listen: ListenRules } }>('select public.reward_rules() as r'))).rows[0]!
      .r.listen
    expect(asUser).toEqual(rules)
  })

  it('a listen qualifies at min(qualify_seconds, qualify_fraction × length), for every catalogue song and a short one', async () => {
    await db.query(
      "insert into public.songs (id, title, artist, duration_seconds, slug) values ('short-rules-test', 'Short', 'Test', " +
        "20, 'short-rules-test')",
    )
    const songs = (
      await db.query<{ id: string; duration_seconds: number; reward: number }>(
        'select id, duration_seconds, reward from public.songs order by id',
      )
    ).rows
    // A song inserted without a reward gets the rules' default reward.
    expect(songs.find((s) => s.id === 'short-rules-test')!.reward).toBe(rules.default_reward)
    for (const song of songs) {
      const threshold = Math.min(rules.qualify_seconds, song.duration_seconds * rules.qualify_fraction)
      const user = await createUser(db, `threshold-${song.id}@example.com`)
      expect(await listen(user, song.id, Math.ceil(threshold) - 1), song.id).toMatchObject({ credited: 0, reason: null })
      expect(await listen(user, song.id, Math.ceil(threshold)), song.id).toMatchObject({ credited: song.reward, reason: 'credited' })
    }
  })

  it('credits daily_cap listens a day and no more, and answers the same cap', async () => {
    const user = await createUser(db, 'capped@example.com')
    const songs = (await db.query<{ id: string }>('select id from public.songs where duration_seconds >= 60 order by id')).rows
    // 1 CUBE each, so the listening CUBE cap (daily_cube_cap, 50) stays out of reach: only the count can refuse.
    await db.query('update public.songs set reward = 1 where id = any($1)', [songs.slice(0, rules.daily_cap + 2).map((s) => s.id)])
    const answers: ListenAnswer[] = []
    // A different song each time: only the daily cap (not the per-song limit) can refuse.
    for (let i = 0; i < rules.daily_cap + 2; i++) answers.push(await listen(user, songs[i]!.id, rules.qualify_seconds))
    expect(answers.filter((a) => a.reason === 'credited')).toHaveLength(rules.daily_cap)
    expect(answers.slice(rules.daily_cap).every((a) => a.reason === 'daily_cap' && a.cap_reached && a.credited === 0)).toBe(true)
    expect(answers.every((a) => a.daily_cap === rules.daily_cap)).toBe(true)
    expect(answers.at(-1)!.listens_today).toBe(rules.daily_cap)
    // The table's own constraint holds the same cap, whatever path writes.
    await expect(
      db.query('update public.user_tokens set listens_today = $2 where user_id = $1', [user, rules.daily_cap + 1]),
    ).rejects.toThrow(/user_tokens_listens_today_check/)
  })

  it('credits at most daily_cube_cap CUBE of listening a day: the listen that reaches it pays the rest', async () => {
    const user = await createUser(db, 'cube-capped@example.com')
    const songs = (await db.query<{ id: string }>('select id from public.songs where duration_seconds >= 60 order by id desc')).rows
    const used = songs.slice(0, Math.ceil(rules.daily_cube_cap / 3) + 2)
    await db.query('update public.songs set reward = 3 where id = any($1)', [used.map((s) => s.id)])
    const answers: ListenAnswer[] = []
    for (const song of used) answers.push(await listen(user, song.id, rules.qualify_seconds))
    expect(answers.reduce((sum, a) => sum + a.credited, 0)).toBe(rules.daily_cube_cap)
    const last = answers.findLastIndex((a) => a.credited > 0)
    expect(answers[last]!.credited).toBe(rules.daily_cube_cap % 3 || 3)
    expect(answers.slice(last + 1).every((a) => a.reason === 'cube_cap' && a.credited === 0)).toBe(true)
  })
})
