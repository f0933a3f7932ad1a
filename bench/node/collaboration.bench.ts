/**
 * Live collaboration across clients: creators in one shared project, each a supabase-js client with
 * the studio's own store and sync (src/domain/studio/shared-project.ts), over the real local backend
 * (Realtime broadcast on the project's private channel, the stored update log, RLS). Every client and
 * the server run in this process, so the CPU figure is the whole stack's.
 *
 *   1. a remote edit: the owner moves a knob, the time until every other creator's store shows it
 *      (p50/p95), while all of them edit;
 *   2. COLLAB_CREATORS creators (8) each editing five times a second for COLLAB_SECONDS (60):
 *      updates sent and applied per second, CPU, the stored log before and after compaction, and
 *      whether every replica ends in the same state;
 *   3. a late creator joining a 30-minute project (12 tracks: 8 of audio in 60 clips each, 4
 *      instruments with a note every 2 s) that has a long edit history: time until its store holds it.
 *
 * Run: npm run bench -- collaboration
 *      (or standalone: npx tsx --import ./bench/url-imports.mjs bench/node/collaboration.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import * as Y from 'yjs'
import type { SupabaseClient } from '@supabase/supabase-js'
import { createMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { joinSharedProject, type SharedSession } from '../../src/domain/studio/shared-project.ts'
import { REMOTE } from '../../src/domain/studio/project-sync.ts'
import type { TrackControl } from '../../src/engine/mixer-model.ts'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { SCRIPTED_SERVER_OPTIONS, signedInClient, signUp, sql } from '../../tests/backend/support/local-backend.ts'
import type { BenchResult } from '../types.ts'

const CREATORS = Number(process.env.COLLAB_CREATORS ?? 8)
const SECONDS = Number(process.env.COLLAB_SECONDS ?? 60)
const EDITS_PER_SECOND = 5
const PROJECT = { id: '77777777-7777-4777-8777-777777777777', name: 'Bench session' }
const LONG_PROJECT = { id: '88888888-8888-4888-8888-888888888888', name: 'Thirty minutes' }

type Store = ReturnType<typeof createMixerStore>
interface Creator {
  name: string
  db: SupabaseClient
  store: Store
  session: SharedSession
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

async function accounts(server: LocalServer, count: number, tag: string) {
  const users = []
  for (let i = 0; i < count; i++) users.push(await signUp(server, `bench-${tag}-${i}@example.com`, 'bench-pass-1', `b${tag}${i}`))
  return users
}

async function join(server: LocalServer, user: { id: string; email: string }, project: typeof PROJECT, owner: boolean): Promise<Creator> {
  const db = await signedInClient(server, { email: user.email, password: 'bench-pass-1' })
  const store = createMixerStore(new Y.Doc())
  const name = user.email.split('@')[0]!
  const session = joinSharedProject({ db, project, part: owner ? 'owner' : 'editor', name, store, userId: user.id, audio: null })
  await session.ready
  return { name, db, store, session }
}

const mixState = (store: Store) =>
  JSON.stringify({ tracks: store.getState().tracks, master: store.getState().master, tempo: store.getState().tempo })

async function storedLog(server: LocalServer, projectId: string) {
  const [row] = await sql<{ rows: number; bytes: number }>(
    server,
    'select count(*)::int as rows, coalesce(sum(octet_length(body)), 0)::int as bytes from public.project_updates where project_id = $1',
    [projectId],
  )
  return row!
}

async function editingTogether(server: LocalServer, out: BenchResult[]) {
  const users = await accounts(server, CREATORS + 1, 'live')
  const [ownerUser, ...rest] = users
  await sql(server, 'insert into public.studio_projects (id, user_id, name) values ($1, $2, $3)', [PROJECT.id, ownerUser!.id, PROJECT.name])
  for (const u of rest)
    await sql(server, "insert into public.project_members (project_id, user_id, role) values ($1, $2, 'editor')", [PROJECT.id, u.id])

  const owner = await join(server, ownerUser!, PROJECT, true)
  for (let i = 0; i < 8; i++) owner.store.getState().addTrack({ name: `T${i}`, type: 'main', audioId: `a${i}`, duration: 30 })
  const creators = [owner]
  for (const u of rest.slice(0, CREATORS - 1)) creators.push(await join(server, u, PROJECT, false))
  const late = rest[CREATORS - 1]!
  await until(() => creators.every((c) => c.store.getState().tracks.length === 8), 10_000, 'every creator to have the tracks')
  const ids = owner.store.getState().tracks.map((t) => t.id)
  const probeTrack = ids[0]!

  // What the others apply: every document update not made by their own store's edits.
  let applied = 0
  let sent = 0
  for (const c of creators) c.store.collab.doc.on('update', (_u: Uint8Array, origin: unknown) => origin === REMOTE && applied++)

  // The probe: the owner's pan of the first track, which nobody else touches.
  const latencies: number[] = []
  let probe = 0
  const probeTimer = setInterval(async () => {
    const value = -50 + (++probe % 100)
    const at = performance.now()
    owner.store.getState().setControl(probeTrack, 'pan', value, `probe-${probe}`)
    const others = creators.slice(1)
    const seen = new Set<Creator>()
    const stops = others.map((c) =>
      c.store.subscribe((s) => {
        if (seen.has(c) || s.tracks.find((t) => t.id === probeTrack)?.pan !== value) return
        seen.add(c)
        latencies.push(performance.now() - at)
      }),
    )
    await sleep(450)
    for (const stop of stops) stop()
  }, 500)

  const controls: TrackControl[] = ['volume', 'reverb', 'delay', 'lowpass']
  const editors = creators.map((c, n) =>
    setInterval(() => {
      const track = ids[1 + ((n + sent) % (ids.length - 1))]!
      c.store.getState().setControl(track, controls[sent % controls.length]!, (sent * 7 + n) % 100, `e${n}-${sent}`)
      sent++
    }, 1000 / EDITS_PER_SECOND),
  )
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await sleep(SECONDS * 1000)
  for (const e of editors) clearInterval(e)
  clearInterval(probeTimer)
  const wall = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  await sleep(1500)
  const converged = await (async () => {
    const end = Date.now() + 10_000
    while (Date.now() < end) {
      const first = mixState(owner.store)
      if (creators.every((c) => mixState(c.store) === first)) return true
      await sleep(100)
    }
    return false
  })()
  for (const c of creators) await c.session.ready
  await sleep(1500)
  const before = await storedLog(server, PROJECT.id)
  const docBytes = Y.encodeStateAsUpdate(owner.store.collab.doc).byteLength

  out.push({
    name: `remote edit seen by the other ${CREATORS - 1}, p50`,
    value: quantile(latencies, 0.5),
    unit: 'ms',
    detail: `${latencies.length} arrivals of ${probe} probes`,
  })
  out.push({
    name: `remote edit seen by the other ${CREATORS - 1}, p95`,
    value: quantile(latencies, 0.95),
    unit: 'ms',
    detail: 'target < 100 ms',
  })
  out.push({
    name: `${CREATORS} creators editing, updates sent`,
    value: (sent + probe) / wall,
    unit: '/s',
    detail: `${(applied / wall).toFixed(0)}/s applied across replicas; converged: ${converged ? 'yes' : 'NO'}`,
  })
  out.push({
    name: `${CREATORS} creators editing, CPU`,
    value: (cpu.user + cpu.system) / 1e6 / wall,
    unit: 'cores',
    detail: 'server, database thread and every client, in one process',
  })
  out.push({
    name: `stored log after ${Math.round(wall)} s`,
    value: before.bytes / 1024,
    unit: 'KiB',
    detail: `${before.rows} rows; the document itself ${(docBytes / 1024).toFixed(1)} KiB`,
  })

  // A creator who joins now compacts the log (it is past COMPACT_AFTER rows).
  const joiner = await join(server, late, PROJECT, false)
  await sleep(500)
  const after = await storedLog(server, PROJECT.id)
  out.push({ name: 'stored log after compaction', value: after.bytes / 1024, unit: 'KiB', detail: `${after.rows} rows` })
  for (const c of [...creators, joiner]) await c.session.leave()
}

async function lateJoiner(server: LocalServer, out: BenchResult[]) {
  const [ownerUser, lateUser] = await accounts(server, 2, 'long')
  await sql(server, 'insert into public.studio_projects (id, user_id, name) values ($1, $2, $3)', [
    LONG_PROJECT.id,
    ownerUser!.id,
    LONG_PROJECT.name,
  ])
  await sql(server, "insert into public.project_members (project_id, user_id, role) values ($1, $2, 'editor')", [
    LONG_PROJECT.id,
    lateUser!.id,
  ])
  const owner = await join(server, ownerUser!, LONG_PROJECT, true)
  const s = owner.store.getState
  // Thirty minutes of arrangement, built a track at a time (each stored as it is made).
  for (let t = 0; t < 8; t++) {
    const track = s().addTrack({ name: `Audio ${t}`, type: 'main', audioId: `long-${t}`, duration: 30 })
    s().editClips(track.id, () =>
      Array.from({ length: 60 }, (_, i) => ({
        id: `c${t}-${i}`,
        start: i * 30,
        sourceStart: 0,
        sourceEnd: 30,
        length: 30,
        phase: 0,
        gain: 1,
        fadeIn: 0.01,
        fadeOut: 0.01,
      })),
    )
    await owner.session.ready
    await sleep(1100)
  }
  for (let t = 0; t < 4; t++) {
    s().addInstrumentTrack({
      program: [0, 32, 80, 0][t]!,
      drums: t === 3,
      notes: Array.from({ length: 900 }, (_, i) => ({
        id: `n${t}-${i}`,
        key: 36 + ((i * 5 + t * 7) % 48),
        start: i * 2,
        length: 0.5,
        velocity: 90,
      })),
      name: `Part ${t}`,
    })
    await sleep(1100)
  }
  // A long history: 1,000 knob moves, stored a second's worth at a time.
  const ids = s().tracks.map((t) => t.id)
  for (let i = 0; i < 1000; i++) {
    s().setControl(ids[i % ids.length]!, 'volume', i % 100, `h${i}`)
    if (i % 100 === 99) await sleep(1100)
  }
  await sleep(1500)
  const log = await storedLog(server, LONG_PROJECT.id)
  const want = mixState(owner.store)
  const t0 = performance.now()
  const late = await join(server, lateUser!, LONG_PROJECT, false)
  const ready = performance.now() - t0
  await until(() => mixState(late.store) === want, 15_000, 'the late creator to hold the whole project')
  const whole = performance.now() - t0
  out.push({
    name: 'late creator joins a 30-minute project',
    value: whole,
    unit: 'ms',
    detail:
      `stored state applied after ${ready.toFixed(0)} ms; log ${log.rows} rows, ` +
      `${(log.bytes / 1024).toFixed(0)} KiB; 12 tracks, 480 clips, 3,600 notes`,
  })
  await late.session.leave()
  await owner.session.leave()
}

export async function run(): Promise<BenchResult[]> {
  const server = await startLocalServer({ ...SCRIPTED_SERVER_OPTIONS, port: 0, embeddedChain: false })
  const out: BenchResult[] = []
  try {
    await editingTogether(server, out)
    await lateJoiner(server, out)
  } finally {
    await server.close()
  }
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(r.name, r.value.toFixed(1), r.unit, r.detail ?? '')
  process.exit(0)
}
