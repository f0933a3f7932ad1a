/**
 * The Live Mixer's state (tracks, master, selection, open project). Audio itself lives in
 * src/engine/mixer-audio.ts, keyed by each track's audioId; the live engine follows this store.
 */
import { create } from 'zustand'
import { putMixerAudio } from '../../engine/mixer-audio.ts'
import { notify } from '../../lib/notify.ts'
import {
  MASTER_DEFAULTS,
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
  selectedId: string | null
  project: OpenProject | null
  addTrack: (input: { name: string; type: TrackType; audioId: string; duration: number; offset?: number; id?: string }) => MixerTrack
  /** Adds a 'Recording N' track (N = recording tracks + 1). */
  addRecording: (input: { audioId: string; duration: number; offset?: number; id?: string }) => MixerTrack
  removeTrack: (id: string) => void
  /** Refuses an empty name silently and one over MAX_TRACK_NAME with an error notice; true = renamed. */
  renameTrack: (id: string, name: string) => boolean
  setControl: (id: string, control: TrackControl, value: number) => void
  setEnabled: (id: string, enabled: boolean) => void
  setMaster: (key: keyof MasterSettings, value: number) => void
  select: (id: string | null) => void
  load: (state: MixerState, project: OpenProject | null) => void
  setProject: (project: OpenProject | null) => void
  reset: () => void
}

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `t-${Date.now()}-${Math.random().toString(36).slice(2)}`)

const initial = (): Pick<MixerStore, 'tracks' | 'master' | 'selectedId' | 'project'> => ({
  tracks: [],
  master: { ...MASTER_DEFAULTS },
  selectedId: null,
  project: null,
})

export const useMixerStore = create<MixerStore>()((set, get) => ({
  ...initial(),
  addTrack: (input) => {
    const name = input.name.trim().replace(/\s+/g, ' ').slice(0, MAX_TRACK_NAME) || 'Track'
    const track = createTrack({ ...input, name, id: input.id ?? newId() })
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
  select: (id) => set({ selectedId: id }),
  load: (state, project) => set({ tracks: state.tracks, master: { ...state.master }, selectedId: state.tracks[0]?.id ?? null, project }),
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
  const { tracks, master } = useMixerStore.getState()
  return { tracks, master }
}
