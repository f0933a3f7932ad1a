/**
 * Backend throughput: credited listens per second and p99 latency through the HTTP server with 50
 * concurrent clients (each a signed-in user calling POST /rest/v1/rpc/listen_report), on embedded
 * PGlite and on a throwaway PostgreSQL 15 cluster when Debian's binaries are installed.
 *
 * The server measures listening time itself, so the bench runs in rounds: outside the timed part
 * every client opens a listening session on this round's song (listen_start), and superuser SQL
 * moves the sessions' clocks 45 s back and resets the daily counters; then all 50 clients send the
 * report that credits their listen at once. Every timed call is a real, credited listen_report
 * (checked). Baseline in the same run: the same
 * 50 clients reading one catalogue row (GET /rest/v1/songs?id=eq...), so ratios survive machine
 * noise; with PGlite the CPU time per call (process.cpuUsage) is also independent of other load.
 *
 * A server is measured warm, as it runs in use: 50 other listeners first go through the same
 * rounds untimed, so V8 has compiled the request path and PostgreSQL has planned the functions
 * on its connections (a cold server spends a third of its CPU compiling).
 *
 * Run: npm run bench -- backend    (or standalone: npx tsx bench/node/backend.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { startPostgresCluster } from '../../tests/backend/support/postgres-cluster.ts'
import type { BenchResult } from '../types.ts'
import { percentile, signUpClients, stopClientThread, timedCalls } from './backend-clients.ts'

const CLIENTS = 50
const ROUNDS = 20

interface Measured {
  perSecond: number
  p50: number
  p99: number
  /** CPU time of this process (clients + HTTP server + PGlite when embedded) per call. */
  cpuMsPerCall: number
}

export async function measure(server: LocalServer): Promise<{ listens: Measured; reads: Measured }> {
  const all = await signUpClients(server, 2 * CLIENTS)
  await rounds(server, all.slice(CLIENTS))
  return rounds(server, all.slice(0, CLIENTS))
}

async function rounds(server: LocalServer, tokens: string[]): Promise<{ listens: Measured; reads: Measured }> {
  const headers = (token: string) => ({ apikey: server.keys.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' })
  let play = 0
  const listenLatencies: number[] = []
  let listenMs = 0
  let listenCpu = 0
  let credited = 0
  // A song per round (a song earns twice a day per listener), the cheapest ones, so that the rounds
  // stay under the day's 50-CUBE listening cap and every timed listen is credited.
  const songs = (
    await server.db.query<{ id: string }>('select id from public.songs where owner_id is null order by reward, id limit $1', [ROUNDS])
  ).rows
  for (let round = 0; round < ROUNDS; round++) {
    const sessions = await timedCalls(
      tokens.map((token) => ({
        url: `${server.url}/rest/v1/rpc/listen_start`,
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ p_song_id: songs[round]!.id, p_play_id: `bench-${++play}` }),
      })),
      [],
    )
    await server.db.query('update public.user_tokens set listens_today = 0')
    await server.db.query(
      "update public.listening_sessions set last_report_at = last_report_at - interval '45 seconds' where ended_at is null",
    )
    const start = performance.now()
    const cpu = process.cpuUsage()
    const answers = await timedCalls(
      tokens.map((token, i) => ({
        url: `${server.url}/rest/v1/rpc/listen_report`,
        method: 'POST',
        headers: headers(token),
        body: JSON.stringify({ p_session_id: (sessions[i] as { session_id: string }).session_id, p_playing: true }),
      })),
      listenLatencies,
    )
    listenMs += performance.now() - start
    const used = process.cpuUsage(cpu)
    listenCpu += (used.user + used.system) / 1000
    credited += (answers as { credited: number }[]).filter((a) => a.credited > 0).length
  }
  if (credited !== CLIENTS * ROUNDS) throw new Error(`expected every timed listen to be credited, got ${credited} of ${CLIENTS * ROUNDS}`)

  const readLatencies: number[] = []
  const readStart = performance.now()
  const readCpuStart = process.cpuUsage()
  for (let round = 0; round < ROUNDS; round++) {
    await timedCalls(
      tokens.map((token) => ({ url: `${server.url}/rest/v1/songs?select=id,reward&id=eq.neon-drift`, headers: headers(token) })),
      readLatencies,
    )
  }
  const readMs = performance.now() - readStart
  const readCpuUsed = process.cpuUsage(readCpuStart)
  const readCpu = (readCpuUsed.user + readCpuUsed.system) / 1000
  const summarise = (latencies: number[], ms: number, cpuMs: number): Measured => {
    const sorted = [...latencies].sort((a, b) => a - b)
    return {
      perSecond: (latencies.length / ms) * 1000,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      cpuMsPerCall: cpuMs / latencies.length,
    }
  }
  return { listens: summarise(listenLatencies, listenMs, listenCpu), reads: summarise(readLatencies, readMs, readCpu) }
}

function results(label: string, m: { listens: Measured; reads: Measured }): BenchResult[] {
  const detail = `${CLIENTS} concurrent clients, ${CLIENTS * ROUNDS} calls`
  return [
    { name: `${label}: credited listens`, value: m.listens.perSecond, unit: 'listens/s', detail },
    { name: `${label}: listen_report p50`, value: m.listens.p50, unit: 'ms' },
    { name: `${label}: listen_report p99`, value: m.listens.p99, unit: 'ms' },
    {
      name: `${label}: CPU per credited listen`,
      value: m.listens.cpuMsPerCall,
      unit: 'ms',
      detail: label === 'PGlite' ? 'this process: clients, server and PGlite' : 'this process only: clients and server, not postgres',
    },
    { name: `${label}: baseline catalogue reads`, value: m.reads.perSecond, unit: 'req/s', detail },
    { name: `${label}: baseline read p99`, value: m.reads.p99, unit: 'ms' },
    {
      name: `${label}: listens vs reads`,
      value: m.listens.perSecond / m.reads.perSecond,
      unit: 'x',
      detail: 'credited-listen throughput relative to plain reads',
    },
  ]
}

export function run(): Promise<BenchResult[]> {
  return measureBoth().finally(stopClientThread)
}

async function measureBoth(): Promise<BenchResult[]> {
  const out: BenchResult[] = []
  const pglite = await startLocalServer({ port: 0, bcryptRounds: 4, signupRateLimit: { max: 100_000, seconds: 3600 } })
  let pgliteListens = 0
  try {
    const m = await measure(pglite)
    pgliteListens = m.listens.perSecond
    out.push(...results('PGlite', m))
  } finally {
    await pglite.close()
  }
  const cluster = await startPostgresCluster()
  if (typeof cluster === 'string') {
    console.warn(`backend bench: PostgreSQL skipped: ${cluster}`)
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
      const m = await measure(server)
      out.push(...results(`PostgreSQL ${cluster.version}`, m))
      out.push({ name: `PostgreSQL vs PGlite credited listens`, value: m.listens.perSecond / pgliteListens, unit: 'x' })
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
          `${r.name.padEnd(44)} ${r.value.toFixed(r.value >= 100 ? 0 : 2).padStart(8)} ${r.unit}${r.detail ? `   (${r.detail})` : ''}`,
        )
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
