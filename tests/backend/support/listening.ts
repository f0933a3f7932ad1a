import { expect } from 'vitest'
import type { LocalServer } from '../../../supabase/local/core/server.ts'
import { rpc, sql, type TestUser } from './local-backend.ts'

/** What listen_start, listen_report and still_listening answer. */
export interface ListenAnswer {
  session_id: string | null
  song_id: string
  heard_seconds: number
  playing: boolean
  ended: boolean
  credited: number
  reason: string | null
  needs_interaction: boolean
  balance: number
  daily_earned: number
  listens_today: number
  daily_cap: number
  cap_reached: boolean
}

let plays = 0
export const playId = (label = 'play') => `${label}-${++plays}-${Math.random().toString(36).slice(2)}`

export async function startListen(
  server: LocalServer,
  user: TestUser,
  songId: string,
  options: { play?: string; interacted?: boolean } = {},
) {
  const r = await rpc(server, user.accessToken, 'listen_start', {
    p_song_id: songId,
    p_play_id: options.play ?? playId(songId),
    p_interacted: options.interacted ?? true,
  })
  expect(r.status, r.text).toBe(200)
  return r.json as ListenAnswer
}

export async function report(server: LocalServer, user: TestUser, sessionId: string, playing = true, extra: Record<string, unknown> = {}) {
  const r = await rpc(server, user.accessToken, 'listen_report', { p_session_id: sessionId, p_playing: playing, ...extra })
  expect(r.status, r.text).toBe(200)
  return r.json as ListenAnswer
}

/**
 * As if `seconds` more had passed on the server's clock since the session's last report (superuser
 * test setup: the server's clock has no switch, so the session's timestamps move back instead).
 */
export const passTime = (server: LocalServer, sessionId: string, seconds: number) =>
  sql(
    server,
    `update public.listening_sessions
        set started_at = started_at - make_interval(secs => $2), last_report_at = last_report_at - make_interval(secs => $2)
      where id = $1`,
    [sessionId, seconds],
  )

/** A listen of `seconds` heard the honest way: reports every 15 s of (simulated) server time. */
export async function listenFor(
  server: LocalServer,
  user: TestUser,
  songId: string,
  seconds: number,
  options: { interacted?: boolean } = {},
) {
  const start = await startListen(server, user, songId, options)
  if (!start.session_id) return start
  let answer = start
  for (let left = seconds; left > 0; left -= 15) {
    await passTime(server, start.session_id, Math.min(15, left))
    answer = await report(server, user, start.session_id)
  }
  return answer
}

/** balance = sum(ledger) and never negative, for each account. */
export async function expectLedgerHolds(server: LocalServer, ...users: TestUser[]) {
  for (const u of users) {
    const [row] = await sql<{ balance: number; ledger: string }>(
      server,
      'select t.balance, (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)::text as ledger ' +
        'from public.user_tokens t where t.user_id = $1',
      [u.id],
    )
    expect(String(row!.balance)).toBe(row!.ledger)
    expect(row!.balance).toBeGreaterThanOrEqual(0)
  }
}

/**
 * The wallet's daily listen counters agree with the ledger: listens_today is the count, and
 * daily_earned the sum, of today's 'listen' rows (post_ledger() moves them with each posting).
 */
export async function expectDailyCountersHold(server: LocalServer, ...users: TestUser[]) {
  for (const u of users) {
    const [row] = await sql<{ listens_today: number; daily_earned: number; rows: string; amount: string }>(
      server,
      `select t.listens_today, t.daily_earned, count(l.id)::text as rows, coalesce(sum(l.amount), 0)::text as amount
         from public.user_tokens t
         left join public.token_ledger l on l.user_id = t.user_id and l.reason = 'listen'
                                         and (l.created_at at time zone 'utc')::date = t.day
        where t.user_id = $1 group by t.user_id`,
      [u.id],
    )
    expect({ listens: row!.listens_today, earned: row!.daily_earned }).toEqual({ listens: Number(row!.rows), earned: Number(row!.amount) })
  }
}

/**
 * Credited listening the hourly pot counts (wallet_claim_status sums the sessions' earning
 * seconds), written straight into the table as test setup: one ended, credited session of
 * `seconds`, started `hoursAgo` hours ago.
 */
export const creditedListening = (server: LocalServer, userId: string, seconds: number, hoursAgo = 0) =>
  sql(
    server,
    `insert into public.listening_sessions
       (user_id, play_key, song_id, duration_seconds, reward, started_at, last_report_at, playing,
        heard_seconds, earning_seconds, credited, outcome, ended_at)
     values ($1, 'setup-' || gen_random_uuid(), 'neon-drift', greatest($2::numeric, 1), 2,
             now() - make_interval(hours => $3::int), now(), false, $2, $2, 2, 'credited', now())`,
    [userId, seconds, hoursAgo],
  )
