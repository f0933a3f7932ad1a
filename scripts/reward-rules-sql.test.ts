import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asRole, createUser, migratedPglite } from './support/migrated-pglite.ts'

// public.reward_rules() is the one statement of the listening rules; the client shows and applies
// what it answers. Against the real SQL (every migration applied to PGlite), record_listen must
// enforce exactly those figures.

interface ListenRules {
  qualify_seconds: number
  qualify_fraction: number
  daily_cap: number
  default_reward: number
}
interface ListenAnswer {
  credited: number
  listens_today: number
  daily_cap: number
  cap_reached: boolean
  reason: string
}

let db: PGlite
let rules: ListenRules
let play = 0

const listen = (userId: string, songId: string, seconds: number) =>
  asRole(
    db,
    userId,
    async (tx) =>
      (await tx.query<{ a: ListenAnswer }>('select public.record_listen($1, $2, $3) as a', [songId, seconds, `play-${++play}`])).rows[0]!.a,
  )
/** As if an hour had passed since each wallet's last credit (superuser test setup). */
const letTimePass = () =>
  db.query("update public.user_tokens set last_credited_at = last_credited_at - interval '1 hour' where last_credited_at is not null")

beforeAll(async () => {
  db = await migratedPglite()
  rules = (await asRole(db, null, (tx) => tx.query<{ r: { listen: ListenRules } }>('select public.reward_rules() as r'))).rows[0]!.r.listen
}, 120_000)
afterAll(() => db?.close())

describe('reward_rules() states what record_listen enforces', () => {
  it('answers every listening rule as a positive number, to visitors and to signed-in users alike', async () => {
    for (const key of ['qualify_seconds', 'qualify_fraction', 'daily_cap', 'default_reward'] as const) {
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
      expect(await listen(user, song.id, Math.ceil(threshold) - 1), song.id).toMatchObject({ credited: 0, reason: 'below_threshold' })
      expect(await listen(user, song.id, Math.ceil(threshold)), song.id).toMatchObject({ credited: song.reward, reason: 'credited' })
    }
  })

  it('credits daily_cap listens a day and no more, and answers the same cap', async () => {
    const user = await createUser(db, 'capped@example.com')
    const answers: ListenAnswer[] = []
    for (let i = 0; i < rules.daily_cap + 2; i++) {
      await letTimePass()
      answers.push(await listen(user, 'neon-drift', rules.qualify_seconds))
    }
    expect(answers.filter((a) => a.reason === 'credited')).toHaveLength(rules.daily_cap)
    expect(answers.slice(rules.daily_cap).every((a) => a.reason === 'daily_cap' && a.cap_reached && a.credited === 0)).toBe(true)
    expect(answers.every((a) => a.daily_cap === rules.daily_cap)).toBe(true)
    expect(answers.at(-1)!.listens_today).toBe(rules.daily_cap)
    // The table's own constraint holds the same cap, whatever path writes.
    await expect(
      db.query('update public.user_tokens set listens_today = $2 where user_id = $1', [user, rules.daily_cap + 1]),
    ).rejects.toThrow(/user_tokens_listens_today_check/)
  })
})
