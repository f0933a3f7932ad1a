/**
 * The mixer's data model, pure (no Web Audio, no React) so the store, the live engine, the offline
 * renderer, persistence and unit tests all agree on one shape and one set of defaults.
 *
 *   MixerTrack      one lane: name, type, enabled, volume, pan, reverb, effects, audioId, offset
 *   MixerState      { tracks, master: { volume, reverb } }
 *   TRACK_DEFAULTS  volume 70, pan 0, reverb 20, every effect 0 (the product's numbers)
 *   MASTER_DEFAULTS volume 80, reverb 30
 *   panLabel(p)     'L25' | 'C' | 'R50'
 *   nextRecordingName(tracks)  'Recording N', N = number of recording tracks + 1
 */
export type TrackType = 'main' | 'effect' | 'recording'

export const EFFECT_NAMES = ['lowpass', 'highpass', 'distortion', 'delay', 'compression', 'chorus'] as const
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
}

export interface MasterSettings {
  volume: number
  reverb: number
}

export interface MixerState {
  tracks: MixerTrack[]
  master: MasterSettings
}

export const TRACK_DEFAULTS = {
  enabled: true,
  volume: 70,
  pan: 0,
  reverb: 20,
  effects: { lowpass: 0, highpass: 0, distortion: 0, delay: 0, compression: 0, chorus: 0 } as TrackEffects,
} as const

export const MASTER_DEFAULTS: MasterSettings = { volume: 80, reverb: 30 }

export const CONTROL_RANGES: Record<TrackControl, { min: number; max: number }> = {
  volume: { min: 0, max: 100 },
  pan: { min: -50, max: 50 },
  reverb: { min: 0, max: 100 },
  lowpass: { min: 0, max: 100 },
  highpass: { min: 0, max: 100 },
  distortion: { min: 0, max: 100 },
  delay: { min: 0, max: 100 },
  compression: { min: 0, max: 100 },
  chorus: { min: 0, max: 100 },
}

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

export function createTrack(input: { id: string; name: string; type: TrackType; audioId: string; duration: number; offset?: number }): MixerTrack {
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

/** Timeline length: where the last track ends. */
export function mixDuration(state: Pick<MixerState, 'tracks'>): number {
  return state.tracks.reduce((end, t) => Math.max(end, t.offset + t.duration), 0)
}

/** Best-effort repair of a persisted state (older versions, hand edits): never throws. */
export function sanitizeState(raw: unknown): MixerState {
  const r = (raw ?? {}) as Partial<MixerState>
  const master: MasterSettings = {
    volume: clampControl('volume', Number(r.master?.volume ?? MASTER_DEFAULTS.volume)),
    reverb: clampControl('reverb', Number(r.master?.reverb ?? MASTER_DEFAULTS.reverb)),
  }
  const tracks = Array.isArray(r.tracks)
    ? r.tracks.filter((t): t is MixerTrack => !!t && typeof t.id === 'string' && typeof t.audioId === 'string').map((t) => {
        let track = createTrack({
          id: t.id,
          name: String(t.name ?? 'Track'),
          type: t.type === 'effect' || t.type === 'recording' ? t.type : 'main',
          audioId: t.audioId,
          duration: Math.max(0, Number(t.duration) || 0),
          offset: Math.max(0, Number(t.offset) || 0),
        })
        track.enabled = t.enabled !== false
        for (const c of ['volume', 'pan', 'reverb'] as const) track = withControl(track, c, Number(t[c] ?? track[c]))
        for (const e of EFFECT_NAMES) track = withControl(track, e, Number(t.effects?.[e] ?? 0))
        return track
      })
    : []
  return { tracks, master }
}
