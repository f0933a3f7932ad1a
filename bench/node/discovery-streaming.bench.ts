/**
 * Discovery, streaming half: time to first audio of a 3-minute published song from the local
 * backend's public Storage URL (target < 300 ms locally), and of a seek to its middle through a
 * Range request, against a plain catalogue read (GET /rest/v1/songs, the 45 built-in songs) in the
 * same run. (The recommendation half of `npm run bench -- discovery` lives in its own file.)
 *
 * The song: 180 s of MP3 frames taken from the shipped discovery catalogue (public/audio/catalogue/,
 * 64 kbit/s), uploaded by a signed-in creator to the public bucket and published with
 * publish_song(), exactly as the app does. "First audio" = the moment the client holds the first
 * complete audio frame after the request went out (what a decoder needs to output its first
 * samples); the request is `Range: bytes=0-` as a media element sends it, then cancelled.
 *
 * Run: npm run bench -- discovery    (or standalone: npx tsx bench/node/discovery-streaming.bench.ts)
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { parseFrameHeader, parseMp3 } from '../../workers/mp3-frames.ts'
import type { BenchResult } from '../types.ts'

const SONG_SECONDS = 180
const RUNS = 40
const CATALOGUE_DIR = join(import.meta.dirname, '../../public/audio/catalogue')

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** 180 s of frames from the shipped catalogue MP3s (all encoded alike), as one MP3 file. */
function threeMinuteMp3(): Buffer {
  const parts: Uint8Array[] = []
  let seconds = 0
  for (const file of readdirSync(CATALOGUE_DIR)
    .filter((f) => f.endsWith('.mp3'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(join(CATALOGUE_DIR, file)))
    const stream = parseMp3(bytes)!
    for (let i = 0; i < stream.offsets.length && seconds < SONG_SECONDS; i++) {
      parts.push(bytes.subarray(stream.offsets[i]!, stream.offsets[i]! + stream.lengths[i]!))
      seconds += stream.samplesPerFrame / stream.sampleRate
    }
    if (seconds >= SONG_SECONDS) break
  }
  if (seconds < SONG_SECONDS) throw new Error('public/audio/catalogue/ holds less than 3 minutes of audio')
  return Buffer.concat(parts)
}

/** Index just past the first complete frame in `bytes`, or -1 while none has fully arrived. */
function firstFrameEnd(bytes: Uint8Array): number {
  for (let i = 0; i + 4 <= bytes.length; i++) {
    const h = parseFrameHeader(bytes, i)
    // A real frame is followed by another header (or is the last): checks the sync is not chance.
    if (h && i + h.length + 4 <= bytes.length && parseFrameHeader(bytes, i + h.length)) return i + h.length
  }
  return -1
}

async function timeToFirstFrame(url: string, range: string): Promise<number> {
  const start = performance.now()
  const response = await fetch(url, { headers: { Range: range } })
  if (response.status !== 206) throw new Error(`expected 206 for ${range}, got ${response.status}`)
  const reader = response.body!.getReader()
  let received = new Uint8Array(0)
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the stream ended before a whole frame arrived')
    received = Buffer.concat([received, value])
    if (firstFrameEnd(received) >= 0) break
  }
  const elapsed = performance.now() - start
  await reader.cancel()
  return elapsed
}

async function publishSong(server: LocalServer, mp3: Buffer): Promise<string> {
  const auth = await fetch(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: `bench-stream-${Date.now()}@example.com`,
      password: 'bench-password',
      data: { username: 'bench_streamer' },
    }),
  })
  const session = (await auth.json()) as { access_token: string; user: { id: string } }
  const headers = { apikey: server.keys.anonKey, Authorization: `Bearer ${session.access_token}` }
  const path = `${session.user.id}/three-minutes.mp3`
  const upload = await fetch(`${server.url}/storage/v1/object/published-audio/${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'audio/mpeg' },
    body: new Blob([new Uint8Array(mp3)]),
  })
  if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`)
  // The server reads the file's length itself before publishing, as the app asks it to.
  const measured = await fetch(`${server.url}/functions/v1/measure-audio`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ path }),
  })
  if (!measured.ok) throw new Error(`measure: ${measured.status} ${await measured.text()}`)
  const publish = await fetch(`${server.url}/rest/v1/rpc/publish_song`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      p_title: 'Three Minutes',
      p_genre: 'electronic',
      p_audio_path: path,
      p_attempt_key: crypto.randomUUID(),
    }),
  })
  if (!publish.ok) throw new Error(`publish: ${publish.status} ${await publish.text()}`)
  const { slug } = (await publish.json()) as { slug: string }
  const row = (await (await fetch(`${server.url}/rest/v1/songs?slug=eq.${slug}&select=audio_url`, { headers })).json()) as {
    audio_url: string
  }[]
  return `${server.url}${row[0]!.audio_url}`
}

export async function run(): Promise<BenchResult[]> {
  const mp3 = threeMinuteMp3()
  const server = await startLocalServer({ port: 0, bcryptRounds: 4, signupRateLimit: { max: 100_000, seconds: 3600 } })
  try {
    const url = await publishSong(server, mp3)
    const catalogue = `${server.url}/rest/v1/songs?select=id,title,artist,duration_seconds,slug,genre,cover_url,audio_url&order=id`
    const anon = { apikey: server.keys.anonKey }
    const first: number[] = []
    const seek: number[] = []
    const reads: number[] = []
    const middle = Math.floor(mp3.length / 2)
    for (let i = 0; i < RUNS + 3; i++) {
      const a = await timeToFirstFrame(url, 'bytes=0-')
      const b = await timeToFirstFrame(url, `bytes=${middle}-`)
      const t = performance.now()
      const rows = (await (await fetch(catalogue, { headers: anon })).json()) as unknown[]
      const c = performance.now() - t
      if (rows.length < 45) throw new Error(`the catalogue read gave ${rows.length} rows`)
      // The first rounds warm the server and the connection pool up; they are not counted.
      if (i < 3) continue
      first.push(a)
      seek.push(b)
      reads.push(c)
    }
    for (const list of [first, seek, reads]) list.sort((x, y) => x - y)
    const detail = `${RUNS} runs, 3-minute song of ${(mp3.length / 1e6).toFixed(2)} MB`
    return [
      { name: 'time to first audio p50', value: percentile(first, 50), unit: 'ms', detail },
      { name: 'time to first audio p99', value: percentile(first, 99), unit: 'ms', detail: 'target < 300 ms' },
      { name: 'seek to 1:30 (Range) first audio p50', value: percentile(seek, 50), unit: 'ms', detail: `Range: bytes=${middle}-` },
      { name: 'catalogue read p50 (baseline)', value: percentile(reads, 50), unit: 'ms', detail: 'GET /rest/v1/songs, 45+ rows' },
      { name: 'first audio / catalogue read (p50)', value: percentile(first, 50) / percentile(reads, 50), unit: 'x' },
    ]
  } finally {
    await server.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`)
}
