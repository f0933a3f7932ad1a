import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpc, signUp, sql, startTestServer, type TestServer } from './support/local-backend.ts'

// One posting function (supabase/schemas/ledger.sql): public.post_ledger is the only code
// that writes the ledger or moves a balance. The catalogue check below fails when a new function
// writes either by hand, so the rule cannot be forgotten.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 90_000)
afterAll(() => server?.close())

describe('the ledger has one posting function', () => {
  it('no other function in the database inserts into token_ledger or sets a balance', async () => {
    const writers = await sql<{ name: string }>(
      server,
      `select p.proname as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname <> 'post_ledger'
          and (p.prosrc ~* 'insert\\s+into\\s+public\\.token_ledger' or p.prosrc ~* 'set\\s+balance\\s*=')
        order by 1`,
    )
    expect(writers.map((w) => w.name)).toEqual([])
    const callers = await sql<{ n: number }>(
      server,
      `select count(*)::int as n from pg_proc where pronamespace = 'public'::regnamespace and prosrc ilike '%public.post_ledger(%'`,
    )
    // Welcome, listen, comment, share, claim, wallet welcome, proposal, remix and its refund, mint and its refund, spend.
    expect(callers[0]!.n).toBeGreaterThanOrEqual(12)
  })

  it('an ordinary account cannot call it through the API', async () => {
    const u = await signUp(server, `post-${Date.now()}@example.com`)
    await rpc(server, u.accessToken, 'init_user_tokens')
    const r = await rpc(server, u.accessToken, 'post_ledger', {
      p_user: u.id,
      p_amount: 1000,
      p_reason: 'welcome',
      p_reference: 'x',
      p_key: `x:${u.id}`,
    })
    expect(r.status).toBeGreaterThanOrEqual(400)
    const [wallet] = await sql<{ balance: number }>(server, 'select balance from public.user_tokens where user_id = $1', [u.id])
    expect(wallet!.balance).toBe(100)
  })

  it('refuses a debit the balance cannot cover and writes nothing; balance = ledger sum after every posting', async () => {
    const u = await signUp(server, `post2-${Date.now()}@example.com`)
    await rpc(server, u.accessToken, 'init_user_tokens')
    await expect(sql(server, `select public.post_ledger($1, -101, 'remix', 'r', 'remix:' || $2 || ':over')`, [u.id, u.id])).rejects.toThrow(
      /insufficient_balance|user_tokens_balance_check/,
    )
    expect(await sql(server, `select public.post_ledger($1, -40, 'remix', 'r', 'remix:' || $2 || ':ok') as balance`, [u.id, u.id])).toEqual(
      [{ balance: 60 }],
    )
    const [check] = await sql<{ balance: number; sum: number; rows: number }>(
      server,
      `select t.balance, (select sum(amount)::int from public.token_ledger where user_id = t.user_id) as sum,
              (select count(*)::int from public.token_ledger where user_id = t.user_id) as rows
         from public.user_tokens t where t.user_id = $1`,
      [u.id],
    )
    expect(check).toEqual({ balance: 60, sum: 60, rows: 2 })
  })
})
