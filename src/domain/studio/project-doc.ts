/**
 * The studio project as a shared Yjs document: the one model every creator's studio edits and
 * reads. The store (mixer-store.ts) writes each edit here as one transaction and projects the
 * document back into plain MixerState for the engine, the timeline, the piano roll and the export.
 *
 *   doc.getArray('tracks')   Y.Map per track, in mixer order: id, name, type, enabled, volume, pan,
 *                            reverb, audioId, offset, duration, effects (Y.Map of the six amounts),
 *                            clips (JSON array), instrument (JSON { program, drums, notes })
 *   doc.getMap('master')     volume, reverb
 *   doc.getMap('meta')       tempo
 *
 * Scalars are fields of their own, so two creators who change different controls of one track both
 * keep their change; clips and notes are one value per track (the last writer's arrangement wins
 * whole), which keeps a clip list or a note list consistent with itself after any merge.
 *
 * Reading never trusts the document: whatever a peer wrote goes through sanitizeState, so a merge
 * (a tempo change meeting a note edit, say) or a hostile update still gives a valid mix, and every
 * replica derives the same mix from the same document.
 */
import * as Y from 'yjs'
import { DEFAULT_BPM } from '../../engine/arrangement/clip-edits.ts'
import { EFFECT_NAMES, MASTER_DEFAULTS, sanitizeState, type MixerState, type MixerTrack } from '../../engine/mixer-model.ts'
import { sameJson } from '../../lib/same-json.ts'

/** What the document holds: tracks (with clips and notes), master and the project tempo. */
export type MixSnapshot = { tracks: MixerTrack[]; master: MixerState['master']; tempo: number }

const SCALARS = ['id', 'name', 'type', 'enabled', 'volume', 'pan', 'reverb', 'audioId', 'offset', 'duration'] as const
const WHOLE_VALUES = ['clips', 'instrument'] as const

export const docTracks = (doc: Y.Doc): Y.Array<Y.Map<unknown>> => doc.getArray<Y.Map<unknown>>('tracks')
export const docMaster = (doc: Y.Doc): Y.Map<unknown> => doc.getMap('master')
export const docMeta = (doc: Y.Doc): Y.Map<unknown> => doc.getMap('meta')
/** The shared types an undo manager watches. */
export const docScope = (doc: Y.Doc): [Y.Array<Y.Map<unknown>>, Y.Map<unknown>, Y.Map<unknown>] => [
  docTracks(doc),
  docMaster(doc),
  docMeta(doc),
]

/** The document as plain JSON, as written (not yet repaired): what sameJson compares with the store. */
export function readRawMix(doc: Y.Doc): { tracks: unknown[]; master: Record<string, unknown>; tempo: unknown } {
  const master = docMaster(doc).toJSON()
  return {
    tracks: docTracks(doc)
      .toArray()
      .map((m) => (m instanceof Y.Map ? m.toJSON() : null)),
    master: { volume: master.volume ?? MASTER_DEFAULTS.volume, reverb: master.reverb ?? MASTER_DEFAULTS.reverb },
    tempo: docMeta(doc).get('tempo') ?? DEFAULT_BPM,
  }
}

/** The document as a valid mix: repaired, a track id seen twice kept once (the first). */
export function readMix(doc: Y.Doc): MixSnapshot {
  const raw = readRawMix(doc)
  const seen = new Set<string>()
  const tracks = raw.tracks.filter((t) => {
    const id = (t as { id?: unknown } | null)?.id
    if (typeof id !== 'string' || seen.has(id)) return false
    seen.add(id)
    return true
  })
  const state = sanitizeState({ tracks, master: raw.master, tempo: raw.tempo })
  return { tracks: state.tracks, master: state.master, tempo: state.tempo ?? DEFAULT_BPM }
}

const setIfChanged = (map: Y.Map<unknown>, key: string, value: unknown): boolean => {
  if (value === undefined) {
    if (!map.has(key)) return false
    map.delete(key)
    return true
  }
  if (sameJson(map.get(key), value)) return false
  map.set(key, value)
  return true
}

/** Writes a track's fields into its map; true when anything changed. */
function writeTrack(map: Y.Map<unknown>, track: MixerTrack): boolean {
  let changed = false
  for (const key of SCALARS) changed = setIfChanged(map, key, track[key]) || changed
  let effects = map.get('effects')
  if (!(effects instanceof Y.Map)) {
    effects = new Y.Map<unknown>()
    map.set('effects', effects)
    changed = true
  }
  for (const e of EFFECT_NAMES) changed = setIfChanged(effects as Y.Map<unknown>, e, track.effects[e]) || changed
  for (const key of WHOLE_VALUES)
    changed = setIfChanged(map, key, track[key] === undefined ? undefined : structuredClone(track[key])) || changed
  return changed
}

function newTrackMap(track: MixerTrack): Y.Map<unknown> {
  const map = new Y.Map<unknown>()
  for (const key of SCALARS) map.set(key, track[key])
  map.set('effects', new Y.Map<unknown>(EFFECT_NAMES.map((e) => [e, track.effects[e]])))
  for (const key of WHOLE_VALUES) if (track[key] !== undefined) map.set(key, structuredClone(track[key]))
  return map
}

/**
 * Makes the document hold `next` with the fewest changes (only fields that differ, tracks added or
 * removed by id), in one transaction with `origin`; true when anything changed. `unchanged`: track
 * objects known to match the document already (the store's projection of it), left unread.
 */
export function writeMix(doc: Y.Doc, next: MixSnapshot, origin: unknown, unchanged?: ReadonlySet<MixerTrack>): boolean {
  let changed = false
  doc.transact(() => {
    const tracks = docTracks(doc)
    const wanted = new Map(next.tracks.map((t) => [t.id, t]))
    // Tracks no longer wanted (or not maps: a peer's junk) go first, from the end so indices hold.
    // (Y.Array's get(i) walks the list: read it once into an array and keep that in step.)
    let maps = tracks.toArray()
    for (let i = maps.length - 1; i >= 0; i--) {
      const m = maps[i]
      const id = m instanceof Y.Map ? m.get('id') : undefined
      if (typeof id !== 'string' || !wanted.has(id)) {
        tracks.delete(i, 1)
        changed = true
      }
    }
    if (changed) maps = tracks.toArray()
    // Then the order: walk `next`, keeping maps already in place and inserting or moving the rest.
    next.tracks.forEach((track, i) => {
      const at = maps[i]
      if (at instanceof Y.Map && at.get('id') === track.id) {
        if (!unchanged?.has(track)) changed = writeTrack(at, track) || changed
        return
      }
      const from = maps.findIndex((m, j) => j > i && m.get('id') === track.id)
      if (from >= 0) tracks.delete(from, 1)
      tracks.insert(i, [newTrackMap(track)])
      maps = tracks.toArray()
      changed = true
    })
    if (tracks.length > next.tracks.length) {
      tracks.delete(next.tracks.length, tracks.length - next.tracks.length)
      changed = true
    }
    const master = docMaster(doc)
    changed = setIfChanged(master, 'volume', next.master.volume) || changed
    changed = setIfChanged(master, 'reverb', next.master.reverb) || changed
    changed = setIfChanged(docMeta(doc), 'tempo', next.tempo) || changed
  }, origin)
  return changed
}
