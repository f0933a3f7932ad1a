import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { expectLedgerHolds, listenFor, passTime, report, startListen } from './support/listening.ts'
import { listenHistory } from './support/trust.ts'

// docs/security.md item 1, as the server-measured listening sessions enforce it: the claimable pot
// (5 CUBE per hour of credited listening) cannot be inflated by what a client says. An ordinary
// account tries: a day claimed in one report, reports racing, listens the daily cap refuses, and
// rows written before the fix; what counts is bounded by the server's clock, the track, the caps.

let server: TestServer
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const DAY = 86_400

let n = 0
async function listener(): Promise<TestUser> {
  n += 1
  const u = await signUp(server, `il${n}x${Date.now() % 100000}@example.com`)
  await rpc(server, u.accessToken, 'init_user_tokens')
  return u
}
const status = async (u: TestUser) => {
  const r = await rpc(server, u.accessToken, 'wallet_claim_status')
  expect(r.status, r.text).toBe(200)
  return r.json as { listened_seconds: number; claimable: number; hours: number }
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await q(`insert into public.songs (id, title, artist, duration_seconds, reward, slug) values
      ('short-85', 'Short 85', 'Test', 85, 2, 'short-85'), ('long-600', 'Long 600', 'Test', 600, 2, 'long-600') on conflict do nothing`)
  }, 90_000)
  afterAll(() => stop?.())

  it("a session left 'playing' for a day earns at most the 90 s gap, an 85 s song at most 85 s; nothing claimable", async () => {
    const u = await listener()
    const s = await startListen(server, u, 'long-600')
    await passTime(server, s.session_id!, DAY)
    expect((await report(server, u, s.session_id!)).heard_seconds).toBe(90)
    const short = await listenFor(server, u, 'short-85', 600)
    expect(short.heard_seconds).toBe(85)
    const st = await status(u)
    expect(st.listened_seconds).toBeLessThanOrEqual(90 + 85)
    expect(st.claimable).toBe(0)
    await listenHistory(server, u.id) // claiming needs a trusted account (supabase/schemas/trust.sql)
    expect((await rpc(server, u.accessToken, 'wallet_claim')).json.claimed).toBe(0)
  })

  it('listens refused by the daily cap add nothing claimable', async () => {
    const u = await listener()
    await q('update public.user_tokens set listens_today = 20 where user_id = $1', [u.id])
    for (let i = 0; i < 3; i++) expect(await listenFor(server, u, 'long-600', 120)).toMatchObject({ credited: 0, reason: 'daily_cap' })
    expect(await status(u)).toMatchObject({ listened_seconds: 0, claimable: 0 })
  })

  it('30 concurrent reports of one session: one credit, at most the time that passed, balance = ledger', async () => {
    const u = await listener()
    const s = await startListen(server, u, 'short-85')
    await passTime(server, s.session_id!, 40)
    const answers = await Promise.all(Array.from({ length: 30 }, () => report(server, u, s.session_id!)))
    expect(new Set(answers.map((a) => a.credited))).toEqual(new Set([2]))
    expect((await status(u)).listened_seconds).toBeLessThanOrEqual(41)
    await Promise.all(Array.from({ length: 5 }, () => rpc(server, u.accessToken, 'wallet_claim')))
    await expectLedgerHolds(server, u)
  })

  it('the pot never exceeds the daily ceiling, and history rows (as the old record_listen wrote them) add nothing', async () => {
    const u = await listener()
    await q(
      'insert into public.user_listening_history (user_id, song_id, listened_at, seconds) ' +
        "select $1, 'short-85', now(), 86400 from generate_series(1, 5)",
      [u.id],
    )
    expect((await status(u)).listened_seconds).toBe(0)
    // Sessions of a whole day, written straight into the table: still capped at 20 x 600 s a day.
    await q(
      `insert into public.listening_sessions
         (user_id, play_key, song_id, duration_seconds, reward, started_at, heard_seconds, earning_seconds, credited, outcome, ended_at)
       select $1, 'legacy-' || g, 'long-600', 600, 2,
              greatest(date_trunc('day', now() at time zone 'utc') at time zone 'utc', now() - make_interval(mins => g)),
              600, 600, 2, 'credited', now() from generate_series(1, 40) g`,
      [u.id],
    )
    const s = await status(u)
    expect(s.listened_seconds).toBeLessThanOrEqual(20 * 600)
    expect(s.claimable).toBeLessThanOrEqual(Math.floor((20 * 600) / 3600) * 5)
  })
})
