/**
 * Minting throughput and latency on the embedded EVM chain: each call is a real mint through the
 * HTTP server (POST /functions/v1/mint: burn + mint_requests in one transaction, the ERC-721 mint
 * transaction on the in-process chain, receipt, completion + nfts row), from the request to the
 * answer with status 'completed' (what the Mint button waits for). Baseline in the same run: the
 * plain spend_tokens rpc (one debit) by the same clients, so ratios survive machine noise. Then the
 * same mints again while two hostile callers loop eth_estimateGas / eth_call of an endless loop on the
 * public /chain/rpc: the minter must not wait for them.
 *
 * Run: npm run bench -- mint    (or standalone: npx tsx bench/node/mint.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { Wallet } from 'ethers'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import type { BenchResult } from '../types.ts'

const CLIENTS = 8
const PER_CLIENT = 6
/** JUMPDEST, PUSH1 0, JUMP: runs until the gas is gone; sent as init code, nobody deploys it. */
const ENDLESS_LOOP = '0x5b600056'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

export async function run(): Promise<BenchResult[]> {
  const startedAt = performance.now()
  const server = await startLocalServer({ port: 0, bcryptRounds: 4, signupRateLimit: { max: 100_000, seconds: 3600 }, embeddedChain: true })
  const startMs = performance.now() - startedAt
  try {
    const headers = (token?: string) => ({
      apikey: server.keys.anonKey,
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    })
    const users: { token: string; recipient: string }[] = []
    for (let i = 0; i < CLIENTS; i++) {
      const r = await fetch(`${server.url}/auth/v1/signup`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ email: `bench-mint-${i}-${Date.now()}@example.com`, password: 'correct-horse' }),
      })
      const body = (await r.json()) as { access_token: string; user: { id: string } }
      await fetch(`${server.url}/rest/v1/rpc/init_user_tokens`, { method: 'POST', headers: headers(body.access_token), body: '{}' })
      await server.db.query('update public.user_tokens set balance = 1000000 where user_id = $1', [body.user.id])
      users.push({ token: body.access_token, recipient: Wallet.createRandom().address })
    }
    const measure = async (call: (u: (typeof users)[number], i: number) => Promise<void>) => {
      const latencies: number[] = []
      const t0 = performance.now()
      await Promise.all(
        users.map(async (u, c) => {
          for (let i = 0; i < PER_CLIENT; i++) {
            const s = performance.now()
            await call(u, c * PER_CLIENT + i)
            latencies.push(performance.now() - s)
          }
        }),
      )
      const seconds = (performance.now() - t0) / 1000
      latencies.sort((a, b) => a - b)
      return { perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) }
    }
    const spend = await measure(async (u, i) => {
      const r = await fetch(`${server.url}/rest/v1/rpc/spend_tokens`, {
        method: 'POST',
        headers: headers(u.token),
        body: JSON.stringify({ p_amount: 100, p_reason: 'mint', p_ref: `bench-${i}-${Date.now()}` }),
      })
      if (!r.ok) throw new Error(`spend_tokens ${r.status} ${await r.text()}`)
    })
    const mintOnce = async (u: (typeof users)[number], i: number) => {
      const r = await fetch(`${server.url}/functions/v1/mint`, {
        method: 'POST',
        headers: headers(u.token),
        body: JSON.stringify({
          blockchain: 'ethereum',
          name: `Bench ${i}`,
          description: 'bench',
          image: 'https://example.com/i.png',
          royalties: 5,
          recipient: u.recipient,
          client_key: `bench-${i}-${Date.now()}`,
        }),
      })
      const body = (await r.json()) as { request?: { status: string } }
      if (body.request?.status !== 'completed') throw new Error(`mint not completed: ${r.status} ${JSON.stringify(body)}`)
    }
    const mint = await measure(mintOnce)
    let stop = false
    let refused = 0
    const hostile = async (method: string) => {
      while (!stop) {
        const r = await fetch(`${server.url}/chain/rpc`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [{ data: ENDLESS_LOOP }] }),
        })
        if (((await r.json()) as { error?: unknown }).error) refused++
      }
    }
    const callers = [hostile('eth_estimateGas'), hostile('eth_call')]
    await new Promise((resolve) => setTimeout(resolve, 500))
    const loaded = await measure(mintOnce)
    stop = true
    await Promise.all(callers)
    const n = CLIENTS * PER_CLIENT
    return [
      {
        name: 'server start incl. chain + deploy',
        value: startMs,
        unit: 'ms',
        detail: 'PGlite in memory, migrations, EDR chain, contract deployment',
      },
      { name: 'mints/s', value: mint.perSecond, unit: '/s', detail: `${n} completed mints, ${CLIENTS} concurrent clients` },
      { name: 'mint p50', value: mint.p50, unit: 'ms', detail: 'request → completed' },
      { name: 'mint p99', value: mint.p99, unit: 'ms' },
      {
        name: 'mint p50 under hostile calls',
        value: loaded.p50,
        unit: 'ms',
        detail: `2 callers looping endless estimateGas/eth_call, ${refused} refused`,
      },
      { name: 'mint p99 under hostile calls', value: loaded.p99, unit: 'ms' },
      { name: 'mint p50 loaded vs unloaded', value: loaded.p50 / mint.p50, unit: '×' },
      { name: 'spend_tokens/s (baseline)', value: spend.perSecond, unit: '/s', detail: `${n} debits, same clients` },
      { name: 'spend_tokens p50', value: spend.p50, unit: 'ms' },
      { name: 'spend_tokens p99', value: spend.p99, unit: 'ms' },
      { name: 'mint vs spend_tokens throughput', value: mint.perSecond / spend.perSecond, unit: '×' },
    ]
  } finally {
    await server.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`)
}
