/**
 * Discovery (recommendation half): time of POST /rest/v1/rpc/recommend_songs for a user with
 * 10,000 listening-history rows (plus 200 likes and 50 follows) over a 10,000-song catalogue,
 * through the HTTP server on embedded PGlite. Target p99 < 100 ms.
 * Baseline in the same run: a plain catalogue read of the same size of answer
 * (GET /rest/v1/songs?select=...&limit=10), so the ratio survives machine noise.
 * Setup (outside the timed part) fills the tables with superuser SQL.
 *
 * Run: npm run bench -- discovery    (or standalone: npx tsx bench/node/discovery-recommend.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import type { BenchResult } from '../types.ts'

const SONGS = 10_000
const HISTORY = 10_000
const RUNS = 200
const GENRES = ['synthwave', 'chillwave', 'electronic', 'lofi', 'ambient', 'techno', 'house', 'jazz', 'cinematic']

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

async function timed(n: number, fn: () => Promise<Response>): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    const r = await fn()
    await r.text()
    times.push(performance.now() - start)
    if (!r.ok) throw new Error(`HTTP ${r.status}`)
  }
  return times.sort((a, b) => a - b)
}

export async function run(): Promise<BenchResult[]> {
  const server = await startLocalServer({ port: 0, bcryptRounds: 4, signupRateLimit: { max: 100_000, seconds: 3600 } })
  try {
    const signUp = async (i: number) => {
      const r = await fetch(`${server.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: `disc${i}-${Date.now()}@example.com`, password: 'bench-password' }),
      })
      return (await r.json()) as { access_token: string; user: { id: string } }
    }
    const me = await signUp(0)
    const creators: string[] = []
    for (let i = 1; i <= 50; i++) creators.push((await signUp(i)).user.id)
    const db = server.db
    await db.query(
      `insert into public.songs (id, slug, title, artist, duration_seconds, reward, genre, owner_id)
       select 'bench-' || g, 'bench-' || g, 'Bench ' || g, 'Artist ' || (g % 700), 60 + g % 120, 1 + g % 5,
              ($1::text[])[1 + g % 9], case when g % 7 = 0 then ($2::uuid[])[1 + g % 50] end
         from generate_series(1, ${SONGS}) g`,
      [GENRES, creators],
    )
    await db.query(
      `insert into public.user_listening_history (user_id, song_id, listened_at, seconds)
       select $1, 'bench-' || (1 + (g * 7919) % ${SONGS}), now() - (g % 60) * interval '1 day', 60
         from generate_series(1, ${HISTORY}) g`,
      [me.user.id],
    )
    await db.query(`insert into public.favourites (user_id, song_id) select $1, 'bench-' || (g * 37) from generate_series(1, 200) g`, [
      me.user.id,
    ])
    await db.query('insert into public.follows (follower_id, following_id) select $1, unnest($2::uuid[])', [me.user.id, creators])
    await db.query('analyze')

    const headers = { apikey: server.keys.anonKey, Authorization: `Bearer ${me.access_token}`, 'Content-Type': 'application/json' }
    const recommend = () =>
      fetch(`${server.url}/rest/v1/rpc/recommend_songs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ p_mode: 'daily', p_limit: 10 }),
      })
    const discover = () =>
      fetch(`${server.url}/rest/v1/rpc/recommend_songs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ p_mode: 'discover', p_salt: 3, p_limit: 10 }),
      })
    const plainRead = () =>
      fetch(`${server.url}/rest/v1/songs?select=id,slug,title,artist,genre,duration_seconds,reward&order=title&limit=10`, { headers })

    // Warm-up (plans, caches), then alternate so both see the same machine load.
    await timed(10, recommend)
    await timed(10, plainRead)
    const rec: number[] = []
    const disc: number[] = []
    const base: number[] = []
    for (let round = 0; round < 4; round++) {
      rec.push(...(await timed(RUNS / 4, recommend)))
      disc.push(...(await timed(RUNS / 8, discover)))
      base.push(...(await timed(RUNS / 4, plainRead)))
    }
    for (const a of [rec, disc, base]) a.sort((x, y) => x - y)
    const detail = `${HISTORY} history rows, ${SONGS} songs, PGlite through HTTP, ${rec.length} calls`
    return [
      { name: 'recommend_songs daily p50', value: percentile(rec, 50), unit: 'ms', detail },
      { name: 'recommend_songs daily p99', value: percentile(rec, 99), unit: 'ms', detail: 'target < 100 ms' },
      { name: 'recommend_songs discover p99', value: percentile(disc, 99), unit: 'ms' },
      { name: 'plain catalogue read p50 (baseline)', value: percentile(base, 50), unit: 'ms', detail: 'GET /rest/v1/songs limit 10' },
      { name: 'plain catalogue read p99 (baseline)', value: percentile(base, 99), unit: 'ms' },
      { name: 'recommend p99 / catalogue read p99', value: percentile(rec, 99) / percentile(base, 99), unit: 'x' },
    ]
  } finally {
    await server.close()
  }
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
