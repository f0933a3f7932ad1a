import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, serverOn } from './support/each-database.ts'
import { rpc, signUp, sql, type TestServer, type TestUser } from './support/local-backend.ts'
import { listenHistory } from './support/trust.ts'

// Issue 22, item 1: the claimable listening pot (5 CUBE per hour of accepted listening) must not
// trust the seconds a client reports. An ordinary account calls record_listen with a day's worth
// of seconds; what earns is bounded by the track's real length, by the wall-clock time the server
// itself saw pass since the previous credited listen, and by the daily cap; capped or refused
// listens add nothing claimable.

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
const listen = async (u: TestUser, song: string, seconds: number) => {
  const r = await rpc(server, u.accessToken, 'record_listen', {
    p_song_id: song,
    p_seconds: seconds,
    p_play_id: `${song}-${Math.random()}`,
  })
  expect(r.status, r.text).toBe(200)
  return r.json as { credited: number; reason: string }
}
const status = async (u: TestUser) => {
  const r = await rpc(server, u.accessToken, 'wallet_claim_status')
  expect(r.status, r.text).toBe(200)
  return r.json as { listened_seconds: number; claimable: number; hours: number }
}
/** As if the user's last credited listen were `seconds` ago (superuser setup: the server's clock has no switch). */
const lastCreditAgo = (u: TestUser, seconds: number) =>
  q('update public.user_tokens set last_credited_at = clock_timestamp() - make_interval(secs => $2) where user_id = $1', [u.id, seconds])
const ledgerMatches = async (u: TestUser) => {
  const [row] = await q<{ balance: number; ledger: string }>(
    'select t.balance, (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)::text as ' +
      'ledger from public.user_tokens t where t.user_id = $1',
    [u.id],
  )
  expect(String(row!.balance)).toBe(row!.ledger)
  expect(row!.balance).toBeGreaterThanOrEqual(0)
}

describe.each(DATABASES)('on %s', (database) => {
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await q(`insert into public.songs (id, title, artist, duration_seconds, reward, slug) values
      ('short-85', 'Short 85', 'Test', 85, 2, 'short-85'), ('long-600', 'Long 600', 'Test', 600, 2, 'long-600') on conflict do nothing`)
  }, 90_000)
  afterAll(() => stop?.())

  it("one call claiming a day's listening on an 85 s song earns at most 85 s, nothing claimable", async () => {
    const u = await listener()
    expect(await listen(u, 'short-85', DAY)).toMatchObject({ reason: 'credited' })
    const s = await status(u)
    expect(s.listened_seconds).toBeLessThanOrEqual(85)
    expect(s.claimable).toBe(0)
    await listenHistory(server, u.id) // claiming needs a trusted account (20261126100000_trust_rule.sql)
    expect((await rpc(server, u.accessToken, 'wallet_claim')).json.claimed).toBe(0)
  })

  it('listens refused by the daily cap add nothing claimable', async () => {
    const u = await listener()
    await q('update public.user_tokens set listens_today = 20 where user_id = $1', [u.id])
    for (let i = 0; i < 10; i++) {
      await lastCreditAgo(u, 3600)
      expect(await listen(u, 'short-85', DAY)).toMatchObject({ credited: 0, reason: 'daily_cap' })
    }
    expect(await status(u)).toMatchObject({ listened_seconds: 0, claimable: 0 })
  })

  it('a credited listen earns no more than the wall-clock time since the previous one', async () => {
    const u = await listener()
    await listen(u, 'long-600', DAY)
    const first = (await status(u)).listened_seconds
    await lastCreditAgo(u, 40)
    expect(await listen(u, 'long-600', 600)).toMatchObject({ reason: 'credited' })
    expect((await status(u)).listened_seconds - first).toBeLessThanOrEqual(41)
  })

  it("a day of calls an hour apart, each claiming a day, stays within the daily cap x the track's length", async () => {
    const u = await listener()
    for (let i = 0; i < 25; i++) {
      await lastCreditAgo(u, 3600)
      await listen(u, 'long-600', DAY)
    }
    const s = await status(u)
    expect(s.listened_seconds).toBeLessThanOrEqual(20 * 600)
    expect(s.claimable).toBeLessThanOrEqual(Math.floor((20 * 600) / 3600) * 5)
    await rpc(server, u.accessToken, 'wallet_claim')
    await ledgerMatches(u)
  })

  it('30 concurrent inflated listens: one credit, at most one track length claimable, balance = ledger', async () => {
    const u = await listener()
    const answers = await Promise.all(Array.from({ length: 30 }, () => listen(u, 'short-85', DAY)))
    expect(answers.filter((a) => a.credited > 0).length).toBe(1)
    expect((await status(u)).listened_seconds).toBeLessThanOrEqual(85)
    await Promise.all(Array.from({ length: 5 }, () => rpc(server, u.accessToken, 'wallet_claim')))
    await ledgerMatches(u)
  })

  it('the pot never exceeds the daily ceiling, even for history written before this fix', async () => {
    const u = await listener()
    // Rows as the old record_listen wrote them: a day's seconds per call, all within today (UTC):
    // the ceiling is per UTC day, so just after midnight 'a few minutes ago' would be yesterday.
    await q(
      "insert into public.user_listening_history (user_id, song_id, listened_at, seconds) select $1, 'short-85', " +
        "greatest(date_trunc('day', now() at time zone 'utc') at time zone 'utc', now() - make_interval(mins => g)), 86400 " +
        'from generate_series(1, 5) g',
      [u.id],
    )
    const s = await status(u)
    expect(s.listened_seconds).toBeLessThanOrEqual(20 * 600)
    expect(s.claimable).toBeLessThanOrEqual(Math.floor((20 * 600) / 3600) * 5)
  })
})
