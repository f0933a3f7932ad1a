/**
 * The mixer's data model, pure (no Web Audio, no React) so the store, the live engine, the offline
 * renderer, persistence and unit tests all agree on one shape and one set of defaults.
 *
 *   MixerTrack      one lane: name, type, enabled, volume, pan, reverb, effects, audioId, offset
 *   MixerState      { tracks, master: { volume, reverb } }
 *   TRACK_DEFAULTS  volume 70, pan 0, reverb 20, every effect 0 (the product's numbers)
 *   MASTER_DEFAULTS volume 80, reverb 30
 *   CONTROL_RANGES  min/max of each control
 *   panLabel(p)     'L25' | 'C' | 'R50'
 *   nextRecordingName(tracks)  'Recording N', N = number of recording tracks + 1
 *
 * Ranges and neutral values come from the channel strip's parameter descriptors
 * (audio-worklets/channel-strip-params.ts), the one place they are written; this module adds only
 * the product's choices on top (a new track's volume 70 and reverb 20, the master's 80 and 30).
 */
import { STRIP_PARAM_BY_NAME, type StripParamName } from '../../audio-worklets/channel-strip-params.ts'
import { sanitizeClips, trackEnd, type Clip } from './arrangement/clip.ts'
import { DEFAULT_BPM, MAX_BPM, MIN_BPM } from './arrangement/clip-edits.ts'
import { instrumentAudioId, instrumentDuration, sanitizeInstrument, type Instrument } from './instruments/note-track.ts'

export type TrackType = 'main' | 'effect' | 'recording' | 'instrument'

export const EFFECT_NAMES = [
  'lowpass',
  'highpass',
  'distortion',
  'delay',
  'compression',
  'chorus',
] as const satisfies readonly StripParamName[]
export type EffectName = (typeof EFFECT_NAMES)[number]
export type TrackEffects = Record<EffectName, number>

/** Every per-track control that maps onto a channel-strip parameter of the same name. */
export type TrackControl = 'volume' | 'pan' | 'reverb' | EffectName

export interface MixerTrack {
  id: string
  name: string
  type: TrackType
  enabled: boolean
  volume: number
  pan: number
  reverb: number
  effects: TrackEffects
  /** Key of the decoded audio in the audio registry / project database. */
  audioId: string
  /** Where the audio starts on the mix timeline, seconds (recordings made during playback). */
  offset: number
  /** Length of the audio, seconds (kept here so lists need no decoded audio). */
  duration: number
  /**
   * The arrangement of this track's audio on the timeline (src/engine/arrangement/clip.ts). Absent:
   * the whole audio plays once from `offset`, as before clips existed.
   */
  clips?: Clip[]
  /**
   * An instrument track's notes and GM instrument (type 'instrument'). Its audio is their render
   * (src/domain/studio/instrument-renders.ts), named by `instrumentAudioId`, so clips, the strip,
   * the export and persistence treat it as any audio and what is exported is what was heard.
   */
  instrument?: Instrument
}

export interface MasterSettings {
  volume: number
  reverb: number
}

export interface MixerState {
  tracks: MixerTrack[]
  master: MasterSettings
  /** Project tempo, beats per minute (the timeline's bars and snap grid); absent = DEFAULT_BPM. */
  tempo?: number
}

/** Every per-track control, in the mixer's order. */
export const TRACK_CONTROLS = ['volume', 'pan', 'reverb', ...EFFECT_NAMES] as const satisfies readonly StripParamName[]

/** The strip's neutral value of a parameter (its descriptor's default). */
const neutral = (name: StripParamName): number => STRIP_PARAM_BY_NAME[name].defaultValue

/** Where a new track starts other than neutral: the product's choice, written only here. */
const NEW_TRACK_LEVELS = { volume: 70, reverb: 20 } as const

export const TRACK_DEFAULTS: {
  readonly enabled: boolean
  readonly volume: number
  readonly pan: number
  readonly reverb: number
  readonly effects: Readonly<TrackEffects>
} = {
  enabled: neutral('enabled') === 1,
  volume: NEW_TRACK_LEVELS.volume,
  pan: neutral('pan'),
  reverb: NEW_TRACK_LEVELS.reverb,
  effects: Object.fromEntries(EFFECT_NAMES.map((e) => [e, neutral(e)])) as TrackEffects,
}

export const MASTER_DEFAULTS: MasterSettings = { volume: 80, reverb: 30 }

export const CONTROL_RANGES: Record<TrackControl, { min: number; max: number }> = Object.fromEntries(
  TRACK_CONTROLS.map((c) => [c, { min: STRIP_PARAM_BY_NAME[c].minValue, max: STRIP_PARAM_BY_NAME[c].maxValue }]),
) as Record<TrackControl, { min: number; max: number }>

export const CONTROL_LABELS: Record<TrackControl, string> = {
  volume: 'Volume',
  pan: 'Pan',
  reverb: 'Reverb',
  lowpass: 'Lowpass',
  highpass: 'Highpass',
  distortion: 'Distortion',
  delay: 'Delay',
  compression: 'Compression',
  chorus: 'Chorus',
}

/** Clamps and rounds to the control's integer range; NaN falls back to the range's low end. */
export function clampControl(control: TrackControl, value: number): number {
  const { min, max } = CONTROL_RANGES[control]
  if (!Number.isFinite(value)) return min
  return Math.min(max, Math.max(min, Math.round(value)))
}

export function panLabel(pan: number): string {
  const p = Math.round(pan)
  if (p === 0) return 'C'
  return p < 0 ? `L${-p}` : `R${p}`
}

export function nextRecordingName(tracks: readonly Pick<MixerTrack, 'type'>[]): string {
  return `Recording ${tracks.filter((t) => t.type === 'recording').length + 1}`
}

export function controlValue(track: MixerTrack, control: TrackControl): number {
  if (control === 'volume' || control === 'pan' || control === 'reverb') return track[control]
  return track.effects[control]
}

export function createTrack(input: {
  id: string
  name: string
  type: TrackType
  audioId: string
  duration: number
  offset?: number
}): MixerTrack {
  return {
    id: input.id,
    name: input.name,
    type: input.type,
    audioId: input.audioId,
    duration: input.duration,
    offset: input.offset ?? 0,
    enabled: TRACK_DEFAULTS.enabled,
    volume: TRACK_DEFAULTS.volume,
    pan: TRACK_DEFAULTS.pan,
    reverb: TRACK_DEFAULTS.reverb,
    effects: { ...TRACK_DEFAULTS.effects },
  }
}

export function withControl(track: MixerTrack, control: TrackControl, value: number): MixerTrack {
  const v = clampControl(control, value)
  if (control === 'volume' || control === 'pan' || control === 'reverb') return { ...track, [control]: v }
  return { ...track, effects: { ...track.effects, [control]: v } }
}

/** Timeline length: where the last clip of any track ends. */
export function mixDuration(state: Pick<MixerState, 'tracks'>): number {
  return state.tracks.reduce((end, t) => Math.max(end, trackEnd(t)), 0)
}

/** Best-effort repair of a persisted state (older versions, hand edits): never throws. */
export function sanitizeState(raw: unknown): MixerState {
  const r = (raw ?? {}) as Partial<MixerState>
  const master: MasterSettings = {
    volume: clampControl('volume', Number(r.master?.volume ?? MASTER_DEFAULTS.volume)),
    reverb: clampControl('reverb', Number(r.master?.reverb ?? MASTER_DEFAULTS.reverb)),
  }
  const tracks = Array.isArray(r.tracks)
    ? r.tracks
        .filter((t): t is MixerTrack => !!t && typeof t.id === 'string' && typeof t.audioId === 'string')
        .map((t) => {
          let track = createTrack({
            id: t.id,
            name: String(t.name ?? 'Track'),
            type: t.type === 'effect' || t.type === 'recording' ? t.type : 'main',
            audioId: t.audioId,
            duration: Math.max(0, Number(t.duration) || 0),
            offset: Math.max(0, Number(t.offset) || 0),
          })
          track.enabled = t.enabled !== false
          const instrument = t.type === 'instrument' ? sanitizeInstrument(t.instrument) : undefined
          if (instrument) track = withInstrument({ ...track, type: 'instrument' }, instrument, tempoOf(r.tempo))
          const clips = sanitizeClips(t.clips, track.duration)
          if (clips) track.clips = clips
          for (const c of ['volume', 'pan', 'reverb'] as const) track = withControl(track, c, Number(t[c] ?? track[c]))
          for (const e of EFFECT_NAMES) track = withControl(track, e, Number(t.effects?.[e] ?? 0))
          return track
        })
    : []
  const tempo = Number(r.tempo)
  return Number.isFinite(tempo) && r.tempo !== undefined ? { tracks, master, tempo: clampTempo(tempo) } : { tracks, master }
}

const tempoOf = (raw: unknown): number => (raw === undefined ? DEFAULT_BPM : clampTempo(Number(raw)))

/**
 * The track with these notes at this tempo: its audio id names their render and its length follows
 * them. A clip that reached the end of the old render reaches the end of the new one, so notes drawn
 * past the last bar are heard without stretching the clip by hand.
 */
export function withInstrument(track: MixerTrack, instrument: Instrument, bpm: number): MixerTrack {
  const duration = instrumentDuration(instrument.notes, bpm)
  const next: MixerTrack = { ...track, instrument, audioId: instrumentAudioId(instrument, bpm), duration }
  if (track.clips && duration !== track.duration)
    next.clips = track.clips.map((c) => {
      const reachedEnd = c.sourceEnd >= track.duration - 1e-6 && c.phase + c.length <= c.sourceEnd - c.sourceStart + 1e-6
      return reachedEnd ? { ...c, sourceEnd: duration, length: Math.max(0.01, c.length + (duration - c.sourceEnd)) } : c
    })
  return next
}

/** Tempo limits of the timeline (40–240 BPM). */
export const clampTempo = (bpm: number): number =>
  Math.round(Math.min(MAX_BPM, Math.max(MIN_BPM, Number.isFinite(bpm) ? bpm : DEFAULT_BPM)) * 100) / 100
