/**
 * The Live Mixer's state (tracks, master, selection, open project). Audio itself lives in
 * src/engine/mixer-audio.ts, keyed by each track's audioId; the live engine follows this store.
 *
 * The mix lives in a shared Yjs document (project-doc.ts): every edit is written there as one
 * transaction with this store's own origin, and the store's tracks/master/tempo are the document's
 * projection, so a collaborator's change (applied to the document by the sync provider) reaches the
 * engine, the timeline and the export like any local edit.
 *
 * Every edit of tracks or master is an undo step (history/edit-history.ts); selection, opening a
 * project and restoring a draft are not, and the last two start a fresh history. The steps' labels
 * and merging live in the edit history; what an undo changes is decided by a Y.UndoManager that
 * tracks only this store's origin, so a creator undoes their own edits and never a collaborator's.
 * Alone, undo gives back the very objects the store held before (the history's snapshots), so the
 * live engine follows it exactly as it follows any edit. Audio is never dropped when a track is
 * removed (only when another project is opened, which clears history), so an undone removal plays again.
 */
import * as Y from 'yjs'
import { create } from 'zustand'
import {
  emptyHistory,
  record,
  redo as redoStep,
  undo as undoStep,
  willCoalesce,
  type EditHistory,
  type HistoryStep,
} from './edit-history.ts'
import { docScope, readMix, readRawMix, writeMix, type MixSnapshot } from './project-doc.ts'
import { sameJson } from '../../lib/same-json.ts'
import { putMixerAudio } from '../../engine/mixer-audio.ts'
import { notify } from '../../lib/notify.ts'
import { trackClips, type Clip } from '../../engine/arrangement/clip.ts'
import { DEFAULT_BPM } from '../../engine/arrangement/clip-edits.ts'
import type { Instrument } from '../../engine/instruments/note-track.ts'
import { gmProgramName } from '../../config/gm-programs.ts'
import {
  MASTER_DEFAULTS,
  clampTempo,
  createTrack,
  nextRecordingName,
  withControl,
  withInstrument,
  clampControl,
  CONTROL_LABELS,
  controlValue,
  type MasterSettings,
  type MixerState,
  type MixerTrack,
  type TrackControl,
  type TrackType,
} from '../../engine/mixer-model.ts'

/** Mixer track names: 1–80 characters after trimming. */
export const MAX_TRACK_NAME = 80
export const TRACK_NAME_TOO_LONG = `Track name must be at most ${MAX_TRACK_NAME} characters`

export interface OpenProject {
  id: string
  name: string
}

/** A slider gesture (one pointer drag): every change carrying the same id is one undo step. */
export type GestureId = string

/** Keyboard bursts on one control (arrow keys held or tapped) merge while keys follow within this. */
export const KEY_BURST_MS = 500

/** What an undo step restores: tracks (with their clips), master and the project tempo. */
type Snapshot = MixSnapshot

interface MixerStore extends MixerState {
  tempo: number
  selectedId: string | null
  project: OpenProject | null
  history: EditHistory<Snapshot>
  /**
   * The tracks/master last opened from or saved to `project` (same references), so "unsaved
   * changes" is a reference comparison; null when the mix never matched a saved project.
   */
  clean: Snapshot | null
  addTrack: (input: {
    name: string
    type: TrackType
    audioId: string
    duration: number
    offset?: number
    id?: string
    clips?: Clip[]
  }) => MixerTrack
  /** Adds an instrument track (named after its instrument unless a name is given), selected. */
  addInstrumentTrack: (input: { program: number; drums?: boolean; notes?: Instrument['notes']; name?: string; id?: string }) => MixerTrack
  /** Adds instrument tracks (an imported MIDI file) as one undo step, setting the tempo first when given. */
  addInstrumentTracks: (
    inputs: { program: number; drums: boolean; notes: Instrument['notes']; name: string; id?: string }[],
    tempo?: number,
  ) => MixerTrack[]
  /**
   * Changes an instrument track's notes or instrument as one undo step (a drag is applied once, on
   * release); `burst`: a key for keyboard changes that merge within KEY_BURST_MS.
   */
  editInstrument: (trackId: string, change: (instrument: Instrument) => Instrument, step: { label: string; burst?: string }) => void
  /** Adds a 'Recording N' track (N = recording tracks + 1). */
  addRecording: (input: { audioId: string; duration: number; offset?: number; id?: string }) => MixerTrack
  removeTrack: (id: string) => void
  /** Refuses an empty name silently and one over MAX_TRACK_NAME with an error notice; true = renamed. */
  renameTrack: (id: string, name: string) => boolean
  /** `gesture`: one pointer drag's id; without it, changes to one control within KEY_BURST_MS merge. */
  setControl: (id: string, control: TrackControl, value: number, gesture?: GestureId) => void
  setEnabled: (id: string, enabled: boolean) => void
  setMaster: (key: keyof MasterSettings, value: number, gesture?: GestureId) => void
  /** Project tempo (40–240 BPM): the timeline's bars and snap grid. */
  setTempo: (bpm: number) => void
  /**
   * Applies an edit (src/engine/arrangement/clip-edits.ts) to a track's clips as one undo step
   * (a drag is applied once, on release); a track that had none gets its implicit whole-audio clip
   * first. step.gesture: a slider drag's id; step.burst: a key for keyboard changes that merge
   * within KEY_BURST_MS (as the mixer's own sliders do).
   */
  editClips: (
    trackId: string,
    edit: (clips: Clip[], duration: number) => Clip[],
    step?: { label: string; gesture?: GestureId; burst?: string },
  ) => void
  select: (id: string | null) => void
  /** Opens a saved project: not an undo step, clears history, and marks the mix clean. */
  load: (state: MixerState, project: OpenProject | null) => void
  /** Puts back an autosaved draft: clears history; the mix stays unsaved. */
  restore: (state: MixerState, project: OpenProject | null) => void
  setProject: (project: OpenProject | null) => void
  /** After a successful save of `saved` (the snapshot that was written) as `project`. */
  markSaved: (saved: MixerState, project: OpenProject) => void
  undo: () => void
  redo: () => void
  reset: () => void
}

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `t-${Date.now()}-${Math.random().toString(36).slice(2)}`

const initial = (): Pick<MixerStore, 'tracks' | 'master' | 'tempo' | 'selectedId' | 'project' | 'history' | 'clean'> => ({
  tracks: [],
  master: { ...MASTER_DEFAULTS },
  tempo: DEFAULT_BPM,
  selectedId: null,
  project: null,
  history: emptyHistory(),
  clean: null,
})

/** A gesture's changes merge for as long as nothing else is recorded in between. */
const gestureStep = (label: string, gesture: GestureId | undefined, control: string): HistoryStep =>
  gesture === undefined
    ? { label, coalesceKey: `keys:${control}`, window: KEY_BURST_MS }
    : { label, coalesceKey: `gesture:${gesture}:${control}`, window: Infinity }

const selectionAfter = (tracks: readonly MixerTrack[], selectedId: string | null) =>
  selectedId !== null && tracks.some((t) => t.id === selectedId) ? selectedId : (tracks[0]?.id ?? null)

/** Origin of transactions that replace the whole mix (open, restore, reset): never undoable. */
const REPLACE = Symbol('replace mix')

/**
 * The projection of `next` that shares every object it can with `pools` (the state before, the
 * undo snapshot, the saved mix), so unchanged tracks keep their identity and "unsaved changes"
 * stays a reference comparison.
 */
function shareWith(next: Snapshot, pools: readonly (Snapshot | null)[]): Snapshot {
  const known = pools.filter((p): p is Snapshot => p !== null)
  const tracks = next.tracks.map((t) => {
    for (const p of known) {
      const same = p.tracks.find((o) => o.id === t.id)
      if (same && sameJson(same, t)) return same
    }
    return t
  })
  const sharedTracks = known.find((p) => p.tracks.length === tracks.length && p.tracks.every((t, i) => t === tracks[i]))?.tracks ?? tracks
  const master = known.find((p) => sameJson(p.master, next.master))?.master ?? next.master
  return { tracks: sharedTracks, master, tempo: next.tempo }
}

/** The undo manager's stacks and the history's lists kept the same length (one step each). */
function alignHistory(h: EditHistory<Snapshot>, um: Y.UndoManager): EditHistory<Snapshot> {
  // More undo items than steps: the oldest fell off the history's limit.
  if (um.undoStack.length > h.past.length) um.undoStack.splice(0, um.undoStack.length - h.past.length)
  if (um.redoStack.length > h.future.length) um.redoStack.splice(0, um.redoStack.length - h.future.length)
  // Fewer: an undo found its newest items already overwritten by collaborators and dropped them.
  if (um.undoStack.length === h.past.length && um.redoStack.length === h.future.length) return h
  return { ...h, past: h.past.slice(0, um.undoStack.length), future: h.future.slice(0, um.redoStack.length) }
}

export interface MixerStoreCollab {
  /** The shared project document this store edits and projects. */
  doc: Y.Doc
  /** The origin of this store's own transactions (what its undo manager tracks). */
  origin: object
}

/** A mixer store over `doc` (a fresh document by default): one per studio, or per simulated creator in tests. */
export function createMixerStore(initialDoc: Y.Doc = new Y.Doc()) {
  const origin = { store: 'mixer' }
  let doc = initialDoc
  // Merging is decided by the edit history (gesture ids, key bursts): the manager never merges on
  // its own clock, and is told to stop capturing whenever the history starts a new step.
  const undoManager = (d: Y.Doc) =>
    new Y.UndoManager(docScope(d), { trackedOrigins: new Set([origin]), captureTimeout: Number.POSITIVE_INFINITY })
  let um = undoManager(doc)
  let writing = false
  let observe: (tr: Y.Transaction) => void = () => undefined
  const bind = (next: Y.Doc) => {
    doc.off('afterTransaction', observe)
    um.destroy()
    doc = next
    um = undoManager(doc)
    doc.on('afterTransaction', observe)
  }
  /** Writes a whole mix into the current document, not undoable, and clears the undo stacks. */
  const seed = (state: Snapshot) => {
    writing = true
    try {
      writeMix(doc, state, REPLACE)
    } finally {
      writing = false
    }
    um.clear()
    um.stopCapturing()
  }
  const hook = create<MixerStore>()((set, get) => {
    const snapshotOf = (s: MixerStore): Snapshot => ({ tracks: s.tracks, master: s.master, tempo: s.tempo })
    /** Writes `state` to the document as one transaction; true when the document changed. */
    const write = (state: Snapshot, by: unknown, unchanged?: ReadonlySet<MixerTrack>) => {
      writing = true
      try {
        return writeMix(doc, state, by, unchanged)
      } finally {
        writing = false
      }
    }
    /** Applies an edit of tracks/master and records the state before it as one undo step. */
    const edit = (next: Partial<Pick<MixerStore, 'tracks' | 'master' | 'tempo' | 'selectedId'>>, step: HistoryStep) => {
      const s = get()
      if ((next.tracks ?? s.tracks) === s.tracks && (next.master ?? s.master) === s.master && (next.tempo ?? s.tempo) === s.tempo) return
      const now = Date.now()
      if (!willCoalesce(s.history, step, now)) um.stopCapturing()
      // The store's tracks are the document's projection: the ones the edit kept are already there.
      const changed = write(
        { tracks: next.tracks ?? s.tracks, master: next.master ?? s.master, tempo: next.tempo ?? s.tempo },
        origin,
        new Set(s.tracks),
      )
      // Equal content under new references changes nothing shared: nothing to undo either.
      if (!changed) return set(next)
      set({ ...next, history: alignHistory(record(s.history, snapshotOf(s), step, now), um) })
    }
    const travel = (direction: typeof undoStep, apply: () => void) => {
      const s = get()
      const r = direction(s.history, snapshotOf(s))
      if (!r) return
      writing = true
      try {
        apply()
      } finally {
        writing = false
      }
      um.stopCapturing()
      // Alone, the document is back at the snapshot: keep its very objects; otherwise project it.
      const state = sameJson(readRawMix(doc), r.state) ? r.state : shareWith(readMix(doc), [snapshotOf(s), r.state, s.clean])
      set({
        tracks: state.tracks,
        master: state.master,
        tempo: state.tempo,
        history: alignHistory(r.history, um),
        selectedId: selectionAfter(state.tracks, s.selectedId),
      })
    }
    /**
     * Replaces the whole mix (not undoable) and starts a fresh history, in a fresh document: a
     * project opened (or a draft restored) while a live session runs never reaches its room,
     * and the session, seeing its document gone, ends.
     */
    const replace = (state: Snapshot) => {
      bind(new Y.Doc())
      seed(state)
    }
    // A change that did not come from this store (a collaborator's update): project it.
    observe = (tr: Y.Transaction) => {
      if (writing || tr.origin === origin || tr.origin === um || tr.origin === REPLACE || tr.changed.size === 0) return
      const s = get()
      const state = shareWith(readMix(doc), [snapshotOf(s), s.clean])
      if (state.tracks === s.tracks && state.master === s.master && state.tempo === s.tempo) return
      set({ ...state, selectedId: selectionAfter(state.tracks, s.selectedId), history: alignHistory(s.history, um) })
    }
    return {
      ...initial(),
      addTrack: (input) => {
        const name = input.name.trim().replace(/\s+/g, ' ').slice(0, MAX_TRACK_NAME) || 'Track'
        const track: MixerTrack = {
          ...createTrack({ ...input, name, id: input.id ?? newId() }),
          ...(input.clips ? { clips: input.clips } : {}),
        }
        edit({ tracks: [...get().tracks, track], selectedId: track.id }, { label: `Add ${track.name}` })
        return track
      },
      addInstrumentTrack: (input) =>
        get().addInstrumentTracks([{ ...input, name: input.name ?? '', drums: input.drums === true, notes: input.notes ?? [] }])[0]!,
      addInstrumentTracks: (inputs, tempo) => {
        const bpm = tempo === undefined ? get().tempo : clampTempo(tempo)
        const added = inputs.map((input) => {
          const name = (input.name.trim() || gmProgramName(input.program, input.drums)).replace(/\s+/g, ' ').slice(0, MAX_TRACK_NAME)
          const base = createTrack({ id: input.id ?? newId(), name, type: 'instrument', audioId: '', duration: 0 })
          return withInstrument(base, { program: input.program, drums: input.drums, notes: input.notes }, bpm)
        })
        if (added.length === 0) return []
        const tracks = [
          ...get().tracks.map((t) => (t.instrument && bpm !== get().tempo ? withInstrument(t, t.instrument, bpm) : t)),
          ...added,
        ]
        edit(
          { tracks, tempo: bpm, selectedId: added[0]!.id },
          { label: added.length === 1 ? `Add ${added[0]!.name}` : `Add ${added.length} tracks` },
        )
        return added
      },
      editInstrument: (trackId, change, step) => {
        const track = get().tracks.find((t) => t.id === trackId)
        if (!track?.instrument) return
        const instrument = change(track.instrument)
        if (instrument === track.instrument) return
        const same =
          instrument.program === track.instrument.program &&
          instrument.drums === track.instrument.drums &&
          instrument.notes.length === track.instrument.notes.length &&
          instrument.notes.every((n, i) => n === track.instrument!.notes[i])
        if (same) return
        const after = withInstrument(track, instrument, get().tempo)
        edit(
          { tracks: get().tracks.map((t) => (t.id === trackId ? after : t)) },
          step.burst !== undefined ? gestureStep(step.label, undefined, `notes:${step.burst}`) : { label: step.label },
        )
      },
      addRecording: (input) => get().addTrack({ ...input, name: nextRecordingName(get().tracks), type: 'recording' }),
      removeTrack: (id) => {
        const gone = get().tracks.find((t) => t.id === id)
        if (!gone) return
        const tracks = get().tracks.filter((t) => t.id !== id)
        edit({ tracks, selectedId: get().selectedId === id ? (tracks[0]?.id ?? null) : get().selectedId }, { label: `Remove ${gone.name}` })
      },
      renameTrack: (id, name) => {
        const clean = name.trim().replace(/\s+/g, ' ')
        if (!clean || !get().tracks.some((t) => t.id === id)) return false
        if (clean.length > MAX_TRACK_NAME) {
          notify.error(TRACK_NAME_TOO_LONG)
          return false
        }
        if (get().tracks.find((t) => t.id === id)?.name === clean) return true
        edit({ tracks: get().tracks.map((t) => (t.id === id ? { ...t, name: clean } : t)) }, { label: 'Rename track' })
        return true
      },
      setControl: (id, control, value, gesture) => {
        const before = get().tracks.find((t) => t.id === id)
        if (!before) return
        const after = withControl(before, control, value)
        if (controlValue(before, control) === controlValue(after, control)) return
        edit(
          { tracks: get().tracks.map((t) => (t.id === id ? after : t)) },
          gestureStep(`${CONTROL_LABELS[control]} change`, gesture, `${id}:${control}`),
        )
      },
      setEnabled: (id, enabled) => {
        const before = get().tracks.find((t) => t.id === id)
        if (!before || before.enabled === enabled) return
        edit(
          { tracks: get().tracks.map((t) => (t.id === id ? { ...t, enabled } : t)) },
          { label: `${enabled ? 'Enable' : 'Disable'} ${before.name}` },
        )
      },
      setMaster: (key, value, gesture) => {
        const v = clampControl(key, value)
        if (get().master[key] === v) return
        edit(
          { master: { ...get().master, [key]: v } },
          gestureStep(`Master ${CONTROL_LABELS[key].toLowerCase()} change`, gesture, `master:${key}`),
        )
      },
      setTempo: (bpm) => {
        const tempo = clampTempo(bpm)
        if (tempo === get().tempo) return
        // Notes are in beats: instrument tracks follow the tempo (their render is redone).
        const tracks = get().tracks.map((t) => (t.instrument ? withInstrument(t, t.instrument, tempo) : t))
        edit({ tempo, tracks: tracks.some((t, i) => t !== get().tracks[i]) ? tracks : get().tracks }, { label: 'Tempo change' })
      },
      editClips: (trackId, change, step = { label: 'Clip edit' }) => {
        const track = get().tracks.find((t) => t.id === trackId)
        if (!track) return
        const before = trackClips(track)
        const clips = change([...before], track.duration)
        // An edit that changes nothing (a refused split, a nudge against 0) is not an undo step.
        if (clips.length === before.length && clips.every((c, i) => c === before[i])) return
        const history: HistoryStep =
          step.burst !== undefined && step.gesture === undefined
            ? gestureStep(step.label, undefined, `clips:${step.burst}`)
            : step.gesture !== undefined
              ? gestureStep(step.label, step.gesture, 'clips')
              : { label: step.label }
        edit({ tracks: get().tracks.map((t) => (t.id === trackId ? { ...t, clips } : t)) }, history)
      },
      select: (id) => set({ selectedId: id }),
      load: (state, project) => {
        const master = { ...state.master }
        const tempo = clampTempo(state.tempo ?? DEFAULT_BPM)
        replace({ tracks: state.tracks, master, tempo })
        set({
          tracks: state.tracks,
          master,
          tempo,
          selectedId: state.tracks[0]?.id ?? null,
          project,
          history: emptyHistory(),
          clean: project ? { tracks: state.tracks, master, tempo } : null,
        })
      },
      restore: (state, project) => {
        const master = { ...state.master }
        const tempo = clampTempo(state.tempo ?? DEFAULT_BPM)
        replace({ tracks: state.tracks, master, tempo })
        set({ tracks: state.tracks, master, tempo, selectedId: state.tracks[0]?.id ?? null, project, history: emptyHistory(), clean: null })
      },
      setProject: (project) => set({ project }),
      markSaved: (saved, project) => set({ project, clean: { ...saved, tempo: saved.tempo ?? DEFAULT_BPM } }),
      undo: () => travel(undoStep, () => um.undo()),
      redo: () => travel(redoStep, () => um.redo()),
      reset: () => {
        const fresh = initial()
        replace({ tracks: fresh.tracks, master: fresh.master, tempo: fresh.tempo })
        set(fresh)
      },
    }
  })
  doc.on('afterTransaction', observe)
  const collab: MixerStoreCollab & {
    useDoc: (next: Y.Doc, project: OpenProject | null) => void
    seed: (state: MixerState, project: OpenProject) => void
  } = {
    get doc() {
      return doc
    },
    origin,
    /** Puts `state` into the current (shared) document as the project's first mix. */
    seed(state, project) {
      const master = { ...state.master }
      const tempo = clampTempo(state.tempo ?? DEFAULT_BPM)
      seed({ tracks: state.tracks, master, tempo })
      hook.setState({ tracks: state.tracks, master, tempo, selectedId: state.tracks[0]?.id ?? null, project, history: emptyHistory() })
    },
    /**
     * Makes `next` the document this store edits (a shared project's own, so nothing of the mix
     * open before travels to its collaborators): its mix is shown, history starts afresh.
     */
    useDoc(next, project) {
      if (next === doc) return
      bind(next)
      const mix = readMix(doc)
      hook.setState({ ...mix, selectedId: mix.tracks[0]?.id ?? null, project, history: emptyHistory(), clean: null })
    },
  }
  return Object.assign(hook, { collab })
}

/** The studio's mixer store: the one the app, the engine service and the export read. */
export const useMixerStore = createMixerStore()

/** True when the mix differs from what was last opened or saved (or was never saved). */
export function hasUnsavedChanges(s: Pick<MixerStore, 'tracks' | 'master' | 'tempo' | 'clean'>): boolean {
  return !s.clean || s.clean.tracks !== s.tracks || s.clean.master !== s.master || (s.clean.tempo ?? DEFAULT_BPM) !== s.tempo
}

/**
 * Puts decoded audio on a new mixer track (used by the AI Generator's 'Add to mixer' and anything
 * else that has audio in hand). Channels are kept as given (1 or 2; more are dropped).
 */
export function addAudioToMixer(input: { name: string; sampleRate: number; channels: Float32Array[]; type?: TrackType }): MixerTrack {
  const channels = input.channels.slice(0, 2)
  const frames = channels[0]?.length ?? 0
  if (frames === 0 || !(input.sampleRate > 0)) throw new Error('There is no audio to add to the mixer.')
  const audioId = `add-${newId()}`
  putMixerAudio({ id: audioId, sampleRate: input.sampleRate, channels })
  return useMixerStore.getState().addTrack({ name: input.name, type: input.type ?? 'main', audioId, duration: frames / input.sampleRate })
}

export function mixerSnapshot(): MixerState {
  const { tracks, master, tempo } = useMixerStore.getState()
  return { tracks, master, tempo }
}
