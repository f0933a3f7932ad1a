/**
 * The studio's shared Yjs document: what an edit costs now that every edit is a Y transaction, what
 * a collaborator's update costs to apply and project back into the store, and how large the stored
 * state of a big project is before and after compaction.
 *
 * Run: npm run bench -- collab-doc   (or standalone: npx tsx bench/node/collab-doc.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import * as Y from 'yjs'
import { createMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { compactUpdates } from '../../src/domain/studio/project-sync.ts'
import type { BenchResult } from '../types.ts'

const EDITS = 2000

function project(tracks: number) {
  const store = createMixerStore(new Y.Doc())
  for (let i = 0; i < tracks; i++) store.getState().addTrack({ name: `T${i}`, type: 'main', audioId: `a${i}`, duration: 30 })
  return store
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = []
  for (const tracks of [8, 64]) {
    const a = project(tracks)
    const b = createMixerStore(new Y.Doc())
    Y.applyUpdate(b.collab.doc, Y.encodeStateAsUpdate(a.collab.doc), 'net')
    const updates: Uint8Array[] = []
    a.collab.doc.on('update', (u: Uint8Array) => updates.push(u))
    const ids = a.getState().tracks.map((t) => t.id)
    let t0 = performance.now()
    for (let i = 0; i < EDITS; i++) a.getState().setControl(ids[i % ids.length]!, 'volume', i % 100, `g${i}`)
    const local = (performance.now() - t0) / EDITS
    t0 = performance.now()
    for (const u of updates) Y.applyUpdate(b.collab.doc, u, 'net')
    const remote = (performance.now() - t0) / updates.length
    out.push({
      name: `local edit, ${tracks} tracks`,
      value: local * 1000,
      unit: 'µs',
      detail: 'setControl: Y transaction + undo step + store',
    })
    out.push({
      name: `remote update, ${tracks} tracks`,
      value: remote * 1000,
      unit: 'µs',
      detail: 'applyUpdate + repaired projection into the store',
    })
    const raw = updates.reduce((n, u) => n + u.byteLength, 0)
    const compact = compactUpdates([Y.encodeStateAsUpdate(a.collab.doc)]).byteLength
    out.push({
      name: `${EDITS} edits stored, ${tracks} tracks`,
      value: raw / 1024,
      unit: 'KiB',
      detail: `compacted snapshot ${(compact / 1024).toFixed(1)} KiB`,
    })
  }
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  for (const r of await run()) console.log(r.name, r.value.toFixed(1), r.unit, r.detail ?? '')
