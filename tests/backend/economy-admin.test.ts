import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { listenFor } from './support/listening.ts'

// Visibility and proof: the admin's Economy view is read from the ledger (the only
// truth): CUBE created and destroyed per reason per UTC day, the top earners, how the listening
// rules bit. Administrators only; an ordinary account and a visitor get nothing.

let server: TestServer
let admin: TestUser
let listener: TestUser

beforeAll(async () => {
  server = await startTestServer({ adminEmails: ['economist@example.com'] })
  admin = await signUp(server, 'economist@example.com', 'boss-pass-1', 'economist')
  listener = await signUp(server, 'earner@example.com', 'earner-pass-1', 'earner')
  for (const u of [admin, listener]) await rpc(server, u.accessToken, 'init_user_tokens')
  await listenFor(server, listener, 'orbital-haze', 40)
  await listenFor(server, listener, 'orbital-haze', 40)
  await listenFor(server, listener, 'orbital-haze', 40)
  expect((await rpc(server, listener.accessToken, 'spend_tokens', { p_amount: 7, p_reason: 'remix', p_ref: 'econ-1' })).status).toBe(200)
}, 90_000)
afterAll(() => server?.close())

describe('admin_economy', () => {
  it('reports today per reason, the supply equal to the ledger, the top earner and the song limit biting', async () => {
    const r = await rpc(server, admin.accessToken, 'admin_economy', { p_days: 1 })
    expect(r.status, r.text).toBe(200)
    const today = new Date().toISOString().slice(0, 10)
    const row = (reason: string) => r.json.per_day.find((d: { day: string; reason: string }) => d.day === today && d.reason === reason)
    expect(row('welcome')).toMatchObject({ minted: 200, burned: null, entries: 2 })
    expect(row('listen')).toMatchObject({ minted: 10, entries: 2 })
    expect(row('remix')).toMatchObject({ minted: null, burned: 7, entries: 1 })
    expect(r.json.totals).toMatchObject({ minted: 210, burned: 7, supply: 203, ledger_sum: 203, accounts: 2 })
    expect(r.json.top_earners[0]).toMatchObject({ username: 'earner', earned: 10, listens: 2, creator: 0 })
    expect(r.json.listen_outcomes).toEqual({ credited: 2, song_limit: 1 })
    // Both accounts are new: the trust rule holds back their whole balances (the supply, 203).
    expect(r.json.held_back).toMatchObject({ accounts: 2, locked: 203, needed_days: 3, needed_songs: 10 })
    expect(r.json.held_back.closest[0]).toMatchObject({ username: 'earner', listening_days: 1, distinct_songs: 1 })
    const [check] = await sql<{ s: string }>(server, 'select sum(amount)::text as s from public.token_ledger')
    expect(Number(check!.s)).toBe(r.json.totals.ledger_sum)
  })

  it('answers nothing to an ordinary account or a visitor', async () => {
    const ordinary = await rpc(server, listener.accessToken, 'admin_economy', { p_days: 7 })
    expect(ordinary.status).toBe(403)
    expect(ordinary.json.message).toBe('administrators_only')
    expect((await api(server, '/rest/v1/rpc/admin_economy', { body: { p_days: 7 } })).status).toBe(401)
  })
})
