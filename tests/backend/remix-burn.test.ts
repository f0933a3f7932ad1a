import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'

// The remix burn through the HTTP server: one 50 CUBE debit per attempt key whatever the client
// does (double clicks, two tabs, retries), nothing burned below 50, a remix that cannot be produced
// refunded exactly once, and balance = ledger sum after everything.

let server: TestServer
let owner: TestUser
let other: TestUser
let seq = 0
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const exists = async (text: string, params: unknown[]) => (await q(text, params)).length > 0
const key = () => `attempt-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2)}`

async function freshUser(balance = 100) {
  const u = await signUp(server, `remixer-${++seq}-${Math.random().toString(36).slice(2)}@example.com`)
  expect((await rpc(server, u.accessToken, 'init_user_tokens')).status).toBe(200)
  if (balance !== 100) {
    // Test setup: bring the wallet to `balance` through a ledger row, so balance = ledger still holds.
    await q("insert into public.token_ledger (user_id, amount, reason, reference, idempotency_key) values ($1, $2, 'mint', 'setup', $3)", [
      u.id,
      balance - 100,
      `setup:${u.id}`,
    ])
    await q('update public.user_tokens set balance = $2 where user_id = $1', [u.id, balance])
  }
  return u
}

async function wallet(u: TestUser) {
  const [row] = await q<{ balance: number; ledger: string }>(
    'select t.balance, (select coalesce(sum(amount), 0) from public.token_ledger l where l.user_id = t.user_id)::text as ' +
      'ledger from public.user_tokens t where t.user_id = $1',
    [u.id],
  )
  expect(String(row!.balance), 'balance = ledger sum').toBe(row!.ledger)
  return row!.balance
}

const remixRows = (u: TestUser) =>
  q<{ amount: number; reason: string; reference: string }>(
    "select amount, reason, reference from public.token_ledger where user_id = $1 and reason like 'remix%' order by id",
    [u.id],
  )

beforeAll(async () => {
  server = await startTestServer()
  owner = await freshUser()
  other = await freshUser()
}, 60_000)
afterAll(() => server?.close())

describe('remix burn (50 CUBE)', () => {
  it('remix_rules() is the one source of the cost', async () => {
    const r = await api(server, '/rest/v1/rpc/remix_rules', { body: {} })
    expect(r.status, r.text).toBe(200)
    expect(r.json).toEqual({ cost: 50 })
  })

  it('balance 100 → one burn → 50, a ledger row -50 "remix" referencing the source song', async () => {
    const u = await freshUser()
    const r = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'neon-drift', p_attempt_key: key() })
    expect(r.status, r.text).toBe(200)
    expect(r.json).toMatchObject({ balance: 50, charged: true, status: 'burned' })
    expect(await remixRows(u)).toEqual([{ amount: -50, reason: 'remix', reference: 'neon-drift' }])
    expect(await wallet(u)).toBe(50)
  })

  it('10 concurrent Create Remix calls with the attempt key → exactly one debit, all answer the same remix', async () => {
    const u = await freshUser()
    const k = key()
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => rpc(server, u.accessToken, 'remix_burn', { p_source: 'orbital-haze', p_attempt_key: k })),
    )
    for (const a of answers) expect(a.status, a.text).toBe(200)
    const ids = new Set(answers.map((a) => a.json.remix_id))
    expect(ids.size).toBe(1)
    expect(answers.filter((a) => a.json.charged === true)).toHaveLength(1)
    expect(await remixRows(u)).toEqual([{ amount: -50, reason: 'remix', reference: 'orbital-haze' }])
    expect(await wallet(u)).toBe(50)
  })

  it('two different attempts racing at balance 100 both burn; a third at 0 is refused; never negative', async () => {
    const u = await freshUser()
    const answers = await Promise.all(
      [key(), key(), key()].map((k) => rpc(server, u.accessToken, 'remix_burn', { p_source: 'neon-drift', p_attempt_key: k })),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(1)
    expect(refused[0]!.text).toContain('insufficient_balance')
    expect(await wallet(u)).toBe(0)
  })

  it('balance 30 → refused, nothing burned, no remix row', async () => {
    const u = await freshUser(30)
    const r = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'neon-drift', p_attempt_key: key() })
    expect(r.status).not.toBe(200)
    expect(r.text).toContain('insufficient_balance')
    expect(await remixRows(u)).toEqual([])
    expect(await q('select 1 from public.remixes where user_id = $1', [u.id])).toEqual([])
    expect(await wallet(u)).toBe(30)
  })

  it('a failed render retried under the same key is not charged again; rendered remixes cannot be refunded', async () => {
    const u = await freshUser()
    const k = key()
    const first = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'circuit-breaker', p_attempt_key: k })
    expect(first.json.charged).toBe(true)
    // The render fails; the client retries the same attempt (e.g. after a reload).
    const retry = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'circuit-breaker', p_attempt_key: k })
    expect(retry.status, retry.text).toBe(200)
    expect(retry.json).toMatchObject({ remix_id: first.json.remix_id, charged: false, balance: 50 })
    const done = await rpc(server, u.accessToken, 'remix_complete', { p_remix_id: first.json.remix_id })
    expect(done.status, done.text).toBe(200)
    const refund = await rpc(server, u.accessToken, 'remix_refund', { p_remix_id: first.json.remix_id })
    expect(refund.status).not.toBe(200)
    expect(refund.text).toContain('remix_rendered')
    expect(await remixRows(u)).toHaveLength(1)
    expect(await wallet(u)).toBe(50)
  })

  it('a remix that cannot be produced is refunded exactly once (10 concurrent refunds), and its key cannot burn again', async () => {
    const u = await freshUser()
    const k = key()
    const burn = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'rainy-terminal', p_attempt_key: k })
    const id = burn.json.remix_id as string
    const refunds = await Promise.all(Array.from({ length: 10 }, () => rpc(server, u.accessToken, 'remix_refund', { p_remix_id: id })))
    for (const r of refunds) expect(r.status, r.text).toBe(200)
    expect(refunds.filter((r) => r.json.refunded === true)).toHaveLength(1)
    expect(await remixRows(u)).toEqual([
      { amount: -50, reason: 'remix', reference: 'rainy-terminal' },
      { amount: 50, reason: 'remix_refund', reference: 'rainy-terminal' },
    ])
    expect(await wallet(u)).toBe(100)
    // The same attempt again answers the closed (refunded) attempt: no new debit.
    const again = await rpc(server, u.accessToken, 'remix_burn', { p_source: 'rainy-terminal', p_attempt_key: k })
    expect(again.json).toMatchObject({ status: 'refunded', charged: false, balance: 100 })
    expect(await wallet(u)).toBe(100)
  })

  it('nobody else can complete or refund my remix; visitors cannot burn; bad arguments burn nothing', async () => {
    const burn = await rpc(server, owner.accessToken, 'remix_burn', { p_source: 'neon-drift', p_attempt_key: key() })
    const id = burn.json.remix_id as string
    expect((await rpc(server, other.accessToken, 'remix_refund', { p_remix_id: id })).text).toContain('remix_not_found')
    expect((await rpc(server, other.accessToken, 'remix_complete', { p_remix_id: id })).text).toContain('remix_not_found')
    expect((await api(server, '/rest/v1/rpc/remix_burn', { body: { p_source: 'neon-drift', p_attempt_key: key() } })).status).toBe(401)
    expect((await rpc(server, other.accessToken, 'remix_burn', { p_source: '', p_attempt_key: key() })).status).not.toBe(200)
    expect((await rpc(server, other.accessToken, 'remix_burn', { p_source: 'neon-drift', p_attempt_key: 'short' })).status).not.toBe(200)
    expect(await wallet(other)).toBe(100)
    expect(await wallet(owner)).toBe(50)
    const negative = await q('select 1 from public.user_tokens where balance < 0')
    expect(negative).toEqual([])
  })

  rlsMatrixTests(
    {
      remixes: {
        target: ({ owner: { id: o } }) => `user_id=eq.${o}&source_ref=eq.fixture-song`,
        insert: ({ owner: { id: o } }) => ({ user_id: o, attempt_key: 'forged-attempt', source_ref: 'forged', cost: 1 }),
        update: { status: 'refunded' },
        inserted: () => exists("select 1 from public.remixes where attempt_key = 'forged-attempt'", []),
        untouched: ({ owner: { id: o } }) =>
          exists("select 1 from public.remixes where user_id = $1 and source_ref = 'fixture-song' and status = 'burned'", [o]),
        reset: async ({ owner: { id: o } }) => {
          await q("delete from public.remixes where attempt_key = 'forged-attempt'")
          await q(
            "insert into public.remixes (user_id, attempt_key, source_ref, cost) values ($1, 'fixture-attempt', " +
              "'fixture-song', 50) on conflict (user_id, attempt_key) do update set status = 'burned'",
            [o],
          )
        },
        expect: readOnlyOwn,
      },
    } satisfies Record<string, RlsCase>,
    () => rlsContext(server, owner, other),
  )
})
