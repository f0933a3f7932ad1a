import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ACCOUNTS, seedDemo } from '../../supabase/local/demo-seed.ts'
import { sql, startTestServer, type TestServer } from './support/local-backend.ts'

// `npm run demo` shows a newcomer a living app. The seed goes through the public
// API (the server's rules and ledger apply) and runs once per data folder.

let server: TestServer
beforeAll(async () => {
  // Confirmations on, as `npm run demo` runs: the seed confirms its own accounts from the server side.
  server = await startTestServer({ emailConfirm: true })
}, 60_000)

const confirmBy = (local: TestServer) => async (email: string) => {
  await local.db.query('update auth.users set email_confirmed_at = now(), confirmation_token = null where email = $1', [email])
}
afterAll(() => server?.close())

describe('demo seed', () => {
  it('adds three accounts, playlists, comments and an open proposal (new accounts cannot vote yet); a rerun adds nothing', async () => {
    expect(await seedDemo(server.url, server.keys.anonKey, confirmBy(server))).toBe(true)
    const count = async (table: string) => (await sql<{ n: number }>(server, `select count(*)::int as n from public.${table}`))[0]!.n
    const before = {
      profiles: await count('profiles'),
      playlists: await count('playlists'),
      comments: await count('comments'),
      proposals: await count('proposals'),
      votes: await count('votes'),
    }
    expect(before).toEqual({ profiles: 3, playlists: 2, comments: 3, proposals: 1, votes: 0 })
    expect((await sql(server, 'select username from public.profiles order by username')).map((r) => r.username)).toEqual(
      DEMO_ACCOUNTS.map((a) => a.username).sort(),
    )
    // Every balance is its ledger's sum (the proposal burned 100, comments earned).
    expect(
      await sql(
        server,
        'select bool_and(t.balance = (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)) as ok ' +
          'from public.user_tokens t',
      ),
    ).toEqual([{ ok: true }])

    expect(await seedDemo(server.url, server.keys.anonKey, confirmBy(server))).toBe(false)
    expect(await count('comments')).toBe(before.comments)
    expect(await count('proposals')).toBe(1)
  })
})
