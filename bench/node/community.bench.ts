/**
 * Comments & Earn throughput and Realtime fan-out, on embedded PGlite and on a throwaway
 * PostgreSQL 15 cluster (when Debian's binaries are installed):
 *   - comments posted per second and p99 with 50 concurrent signed-in clients (each
 *     POST /rest/v1/rpc/post_comment: the definer function, its reward checks and the NOTIFY);
 *   - a song's thread read (GET /rest/v1/comments?song_id=eq…, newest 50) p99 with 50 clients;
 *   - baseline in the same run: the same clients reading one catalogue row (a plain read);
 *   - Realtime fan-out: 50 supabase-js clients (transport ws) subscribed to one song's comments;
 *     one user posts 20 comments one after the other; latency from the start of the post call
 *     to each client's delivery (so it includes the post itself), p50 and p99 over 1,000 deliveries.
 * Target: fan-out p99 < 500 ms locally.
 *
 * Run: npm run bench -- community    (or standalone: npx tsx bench/node/community.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { startPostgresCluster } from '../../tests/backend/support/postgres-cluster.ts'
import type { BenchResult } from '../types.ts'
import { percentile as sortedPercentile, signUpClients, stopClientThread, timedCalls, type CallInit } from './backend-clients.ts'

const CLIENTS = 50
const ROUNDS = 6
const FANOUT_POSTS = 20

const percentile = (values: number[], p: number) =>
  sortedPercentile(
    [...values].sort((a, b) => a - b),
    p,
  )

/** Rounds of 50 concurrent calls (the call for client `i` of each round); calls/s over the whole timed part and each call's latency. */
async function rounds(tokens: string[], call: (token: string, i: number) => CallInit & { url: string }) {
  const latencies: number[] = []
  let ms = 0
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now()
    await timedCalls(
      tokens.map((t, i) => call(t, round * CLIENTS + i)),
      latencies,
    )
    ms += performance.now() - start
  }
  return { perSecond: (latencies.length / ms) * 1000, p99: percentile(latencies, 99) }
}

async function fanOut(server: LocalServer, tokens: string[]): Promise<number[]> {
  const clients: SupabaseClient[] = []
  const arrivals = new Map<string, number[]>()
  try {
    await Promise.all(
      tokens.map(async (token, i) => {
        const c = createClient(server.url, server.keys.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
          realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
        })
        clients.push(c)
        await c.realtime.setAuth(token)
        await new Promise<void>((resolve, reject) => {
          c.channel(`bench-${i}`)
            .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'comments', filter: 'song_id=eq.orbital-haze' }, (p) => {
              const id = String((p.new as { id: string }).id)
              const list = arrivals.get(id) ?? []
              list.push(performance.now())
              arrivals.set(id, list)
            })
            .subscribe((status) =>
              status === 'SUBSCRIBED'
                ? resolve()
                : status === 'CHANNEL_ERROR' || status === 'TIMED_OUT'
                  ? reject(new Error(status))
                  : undefined,
            )
        })
      }),
    )
    const latencies: number[] = []
    const headers = { apikey: server.keys.anonKey, Authorization: `Bearer ${tokens[0]}`, 'Content-Type': 'application/json' }
    for (let n = 0; n < FANOUT_POSTS; n++) {
      const start = performance.now()
      const [answer] = (await timedCalls(
        [
          {
            url: `${server.url}/rest/v1/rpc/post_comment`,
            method: 'POST',
            headers,
            body: JSON.stringify({ p_song_id: 'orbital-haze', p_body: `fan-out ${n}` }),
          },
        ],
        [],
      )) as [{ comment: { id: string } }]
      const id = answer.comment.id
      const deadline = performance.now() + 5000
      while ((arrivals.get(id)?.length ?? 0) < CLIENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2))
      const got = arrivals.get(id) ?? []
      if (got.length !== CLIENTS) throw new Error(`fan-out: ${got.length} of ${CLIENTS} clients got comment ${n}`)
      latencies.push(...got.map((t) => t - start))
    }
    return latencies
  } finally {
    await Promise.all(clients.map((c) => c.removeAllChannels()))
  }
}

async function measure(label: string, server: LocalServer): Promise<BenchResult[]> {
  const tokens = await signUpClients(server, CLIENTS, 'cbench')
  const headers = (token: string) => ({ apikey: server.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' })
  const posts = await rounds(tokens, (token, i) => ({
    url: `${server.url}/rest/v1/rpc/post_comment`,
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({ p_song_id: 'neon-drift', p_body: `bench comment ${i}` }),
  }))
  const threadReads = await rounds(tokens, (token) => ({
    url: `${server.url}/rest/v1/comments?select=*&song_id=eq.neon-drift&order=created_at.desc&limit=50`,
    headers: headers(token),
  }))
  const plainReads = await rounds(tokens, (token) => ({
    url: `${server.url}/rest/v1/songs?select=id,reward&id=eq.neon-drift`,
    headers: headers(token),
  }))
  const delivery = await fanOut(server, tokens)
  const detail = `${CLIENTS} concurrent clients, ${CLIENTS * ROUNDS} calls`
  return [
    { name: `${label}: comments posted`, value: posts.perSecond, unit: 'comments/s', detail },
    { name: `${label}: post_comment p99`, value: posts.p99, unit: 'ms' },
    { name: `${label}: thread reads (50 newest)`, value: threadReads.perSecond, unit: 'req/s', detail },
    { name: `${label}: thread read p99`, value: threadReads.p99, unit: 'ms' },
    { name: `${label}: baseline plain reads`, value: plainReads.perSecond, unit: 'req/s', detail },
    { name: `${label}: baseline read p99`, value: plainReads.p99, unit: 'ms' },
    { name: `${label}: posts vs plain reads`, value: posts.perSecond / plainReads.perSecond, unit: 'x' },
    {
      name: `${label}: Realtime delivery p50`,
      value: percentile(delivery, 50),
      unit: 'ms',
      detail: `${CLIENTS} subscribers x ${FANOUT_POSTS} posts, from the post call's start`,
    },
    { name: `${label}: Realtime delivery p99`, value: percentile(delivery, 99), unit: 'ms', detail: 'target < 500 ms' },
    { name: `${label}: delivery p99 vs plain read p99`, value: percentile(delivery, 99) / plainReads.p99, unit: 'x' },
  ]
}

export function run(): Promise<BenchResult[]> {
  return measureBoth().finally(stopClientThread)
}

async function measureBoth(): Promise<BenchResult[]> {
  const out: BenchResult[] = []
  const pglite = await startLocalServer({ port: 0, bcryptRounds: 4, signupRateLimit: { max: 100_000, seconds: 3600 } })
  try {
    out.push(...(await measure('PGlite', pglite)))
  } finally {
    await pglite.close()
  }
  const cluster = await startPostgresCluster()
  if (typeof cluster === 'string') {
    console.warn(`community bench: PostgreSQL skipped: ${cluster}`)
    return out
  }
  try {
    const server = await startLocalServer({
      port: 0,
      bcryptRounds: 4,
      signupRateLimit: { max: 100_000, seconds: 3600 },
      databaseUrl: cluster.url,
    })
    try {
      out.push(...(await measure(`PostgreSQL ${cluster.version}`, server)))
    } finally {
      await server.close()
    }
  } finally {
    cluster.stop()
  }
  return out
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (figures) => {
      for (const r of figures)
        console.log(
          `${r.name.padEnd(48)} ${r.value.toFixed(r.value >= 100 ? 0 : 2).padStart(8)} ${r.unit}${r.detail ? `   (${r.detail})` : ''}`,
        )
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
