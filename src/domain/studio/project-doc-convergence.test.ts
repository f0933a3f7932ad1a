import { describe, expect, it, vi } from 'vitest'

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => undefined, { error: () => undefined, success: () => undefined }) }))
import * as Y from 'yjs'
import { sanitizeState, type MixerTrack } from '../../engine/mixer-model.ts'
import { instrumentAudioId } from '../../engine/instruments/note-track.ts'
import { trackClips } from '../../engine/arrangement/clip.ts'
import { moveClip, setClipGain, splitClip } from '../../engine/arrangement/clip-edits.ts'
import { addNote } from '../../engine/instruments/note-track.ts'
import { sameJson } from '../../lib/same-json.ts'
import { readMix, type MixSnapshot } from './project-doc.ts'
import { createMixerStore } from './mixer-store.ts'

// Three simulated creators edit one project at once; their updates travel through a network that
// delivers in random order, repeats messages and cuts a creator off for a while. Whatever happens,
// once everything has arrived every replica holds the same mix and that mix is a valid one.

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T | undefined => xs[Math.floor(next() * xs.length)],
  }
}

type Store = ReturnType<typeof createMixerStore>
const NET = Symbol('network')

interface Message {
  from: number
  to: number
  update: Uint8Array
}

function simulate(seed: number) {
  const rnd = prng(seed)
  const clients: Store[] = [0, 1, 2].map(() => createMixerStore(new Y.Doc()))
  let queue: Message[] = []
  const offline = new Set<number>()
  clients.forEach((c, from) =>
    c.collab.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === NET) return
      for (let to = 0; to < clients.length; to++) if (to !== from) queue.push({ from, to, update })
    }),
  )
  const deliverSome = () => {
    const n = rnd.int(queue.length + 1)
    for (let k = 0; k < n && queue.length > 0; k++) {
      const i = rnd.int(queue.length)
      const m = queue[i]!
      if (offline.has(m.from) || offline.has(m.to)) continue
      Y.applyUpdate(clients[m.to]!.collab.doc, m.update, NET)
      // A repeated message stays in the queue to arrive again later.
      if (rnd.next() < 0.8) queue = queue.filter((_, j) => j !== i)
    }
  }
  let idCounter = 0
  const id = (c: number) => `c${c}-${seed}-${idCounter++}`
  const edit = (c: number) => {
    const s = clients[c]!.getState()
    const t: MixerTrack | undefined = rnd.pick(s.tracks)
    switch (rnd.int(13)) {
      case 0:
        s.addTrack({ name: `T${idCounter}`, type: 'main', audioId: `a${idCounter}`, duration: 1 + rnd.int(8), id: id(c) })
        break
      case 1:
        s.addInstrumentTrack({
          program: rnd.int(128),
          id: id(c),
          notes: [{ id: id(c), key: 60, start: rnd.int(8), length: 1, velocity: 90 }],
        })
        break
      case 2:
        if (t) s.removeTrack(t.id)
        break
      case 3:
        if (t) s.renameTrack(t.id, `N${rnd.int(100)}`)
        break
      case 4:
        if (t) s.setControl(t.id, rnd.pick(['volume', 'pan', 'reverb', 'delay', 'lowpass'] as const)!, rnd.int(201) - 100)
        break
      case 5:
        if (t) s.setEnabled(t.id, rnd.next() < 0.5)
        break
      case 6:
        s.setMaster(rnd.next() < 0.5 ? 'volume' : 'reverb', rnd.int(101))
        break
      case 7:
        s.setTempo(60 + rnd.int(120))
        break
      case 8:
        if (t) {
          const clip = rnd.pick(trackClips(t))!
          const kind = rnd.int(3)
          s.editClips(t.id, (clips, d) =>
            kind === 0
              ? moveClip(clips, clip.id, rnd.next() * 10, d)
              : kind === 1
                ? splitClip(clips, clip.id, clip.start + clip.length / 2, d, id(c))
                : setClipGain(clips, clip.id, rnd.next() * 2, d),
          )
        }
        break
      case 9:
        if (t?.instrument)
          s.editInstrument(t.id, (i) => ({ ...i, notes: addNote(i.notes, { id: id(c), key: 40 + rnd.int(40), start: rnd.int(32) }) }), {
            label: 'Draw note',
          })
        break
      case 10:
      case 11:
        s.undo()
        break
      default:
        s.redo()
    }
  }
  for (let round = 0; round < 60; round++) {
    if (rnd.next() < 0.1) {
      const c = rnd.int(3)
      if (offline.has(c)) offline.delete(c)
      else offline.add(c)
    }
    edit(rnd.int(3))
    if (rnd.next() < 0.6) deliverSome()
  }
  // The partition heals and everything still in flight arrives, in random order, at least once.
  offline.clear()
  while (queue.length > 0) {
    const m = queue.splice(rnd.int(queue.length), 1)[0]!
    Y.applyUpdate(clients[m.to]!.collab.doc, m.update, NET)
  }
  return clients
}

/** A mix the engine can play: repairing it changes nothing, ids are unique, renders match notes and tempo. */
function expectValid(mix: MixSnapshot) {
  const repaired = sanitizeState(mix)
  expect(sameJson(repaired.tracks, mix.tracks)).toBe(true)
  expect(sameJson(repaired.master, mix.master)).toBe(true)
  expect(new Set(mix.tracks.map((t) => t.id)).size).toBe(mix.tracks.length)
  for (const t of mix.tracks) if (t.instrument) expect(t.audioId).toBe(instrumentAudioId(t.instrument, mix.tempo))
}

describe('the shared project document under concurrent editing', () => {
  it('three creators, random edits, undo and redo, random delivery with repeats and partitions: one valid mix everywhere', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const clients = simulate(seed)
      const mixes = clients.map((c) => readMix(c.collab.doc))
      for (const m of mixes.slice(1)) expect(sameJson(m, mixes[0]), `seed ${seed}`).toBe(true)
      expectValid(mixes[0]!)
      // What each studio shows (engine, timeline, export) is the document's mix.
      for (const c of clients) {
        const s = c.getState()
        expect(sameJson({ tracks: s.tracks, master: s.master, tempo: s.tempo }, mixes[0]), `seed ${seed} store`).toBe(true)
      }
    }
  })
})
