/**
 * The Live Mixer's state (tracks, master, selection, open project). Audio itself lives in
 * src/engine/mixer-audio.ts, keyed by each track's audioId; the live engine follows this store.
 */
import { create } from 'zustand'
import { putMixerAudio } from '../../engine/mixer-audio.ts'
import { notify } from '../../lib/notify.ts'
import { trackClips, type Clip } from '../../engine/arrangement/clip.ts'
import { DEFAULT_BPM } from '../../engine/arrangement/clip-edits.ts'
import {
  MASTER_DEFAULTS,
  clampTempo,
  createTrack,
  nextRecordingName,
  withControl,
  clampControl,
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

interface MixerStore extends MixerState {
  tempo: number
  selectedId: string | null
  project: OpenProject | null
  addTrack: (input: { name: string; type: TrackType; audioId: string; duration: number; offset?: number; id?: string; clips?: Clip[] }) => MixerTrack
  /** Adds a 'Recording N' track (N = recording tracks + 1). */
  addRecording: (input: { audioId: string; duration: number; offset?: number; id?: string }) => MixerTrack
  removeTrack: (id: string) => void
  /** Refuses an empty name silently and one over MAX_TRACK_NAME with an error notice; true = renamed. */
  renameTrack: (id: string, name: string) => boolean
  setControl: (id: string, control: TrackControl, value: number) => void
  setEnabled: (id: string, enabled: boolean) => void
  setMaster: (key: keyof MasterSettings, value: number) => void
  /** Project tempo (40–240 BPM): the timeline's bars and snap grid. */
  setTempo: (bpm: number) => void
  /**
   * Applies an edit (src/engine/arrangement/clip-edits.ts) to a track's clips; a track that had
   * none gets its implicit whole-audio clip first. No-op for an unknown track.
   */
  editClips: (trackId: string, edit: (clips: Clip[], duration: number) => Clip[]) => void
  select: (id: string | null) => void
  load: (state: MixerState, project: OpenProject | null) => void
  setProject: (project: OpenProject | null) => void
  reset: () => void
}

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `t-${Date.now()}-${Math.random().toString(36).slice(2)}`)

const initial = (): Pick<MixerStore, 'tracks' | 'master' | 'tempo' | 'selectedId' | 'project'> => ({
  tracks: [],
  master: { ...MASTER_DEFAULTS },
  tempo: DEFAULT_BPM,
  selectedId: null,
  project: null,
})

export const useMixerStore = create<MixerStore>()((set, get) => ({
  ...initial(),
  addTrack: (input) => {
    const name = input.name.trim().replace(/\s+/g, ' ').slice(0, MAX_TRACK_NAME) || 'Track'
    const track: MixerTrack = { ...createTrack({ ...input, name, id: input.id ?? newId() }), ...(input.clips ? { clips: input.clips } : {}) }
    set({ tracks: [...get().tracks, track], selectedId: track.id })
    return track
  },
  addRecording: (input) => get().addTrack({ ...input, name: nextRecordingName(get().tracks), type: 'recording' }),
  removeTrack: (id) => {
    const tracks = get().tracks.filter((t) => t.id !== id)
    set({ tracks, selectedId: get().selectedId === id ? (tracks[0]?.id ?? null) : get().selectedId })
  },
  renameTrack: (id, name) => {
    const clean = name.trim().replace(/\s+/g, ' ')
    if (!clean || !get().tracks.some((t) => t.id === id)) return false
    if (clean.length > MAX_TRACK_NAME) {
      notify.error(TRACK_NAME_TOO_LONG)
      return false
    }
    set({ tracks: get().tracks.map((t) => (t.id === id ? { ...t, name: clean } : t)) })
    return true
  },
  setControl: (id, control, value) => set({ tracks: get().tracks.map((t) => (t.id === id ? withControl(t, control, value) : t)) }),
  setEnabled: (id, enabled) => set({ tracks: get().tracks.map((t) => (t.id === id ? { ...t, enabled } : t)) }),
  setMaster: (key, value) => set({ master: { ...get().master, [key]: clampControl(key, value) } }),
  setTempo: (bpm) => set({ tempo: clampTempo(bpm) }),
  editClips: (trackId, edit) =>
    set({ tracks: get().tracks.map((t) => (t.id === trackId ? { ...t, clips: edit([...trackClips(t)], t.duration) } : t)) }),
  select: (id) => set({ selectedId: id }),
  load: (state, project) => set({ tracks: state.tracks, master: { ...state.master }, tempo: clampTempo(state.tempo ?? DEFAULT_BPM), selectedId: state.tracks[0]?.id ?? null, project }),
  setProject: (project) => set({ project }),
  reset: () => set(initial()),
}))

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
