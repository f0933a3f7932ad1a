/**
 * A clip: a stretch of a track's audio placed on the mix timeline. Pure data and pure edits (no
 * Web Audio), shared by the store, the live graph, the export and persistence.
 *
 *   start        where the clip begins on the timeline, seconds
 *   sourceStart  first second of the audio it plays (its trimmed head)
 *   sourceEnd    the second of the audio where it stops (its trimmed tail); the region between the
 *                two repeats seamlessly when the clip is longer than it (a loop dragged out)
 *   length       seconds on the timeline
 *   phase        where in the region the clip begins (0 unless a looped clip was split or its
 *                head trimmed: the part that is left keeps its place in the loop)
 *   gain         linear clip gain before the track's strip (1 = as recorded, at most MAX_CLIP_GAIN)
 *   fadeIn, fadeOut  equal-power fades, seconds (together at most the clip's length)
 *
 * A track without clips plays its whole audio once from its offset: `trackClips` gives that
 * implicit clip, so older projects and the plain mixer need no migration.
 */
export interface Clip {
  id: string
  start: number
  sourceStart: number
  sourceEnd: number
  length: number
  phase: number
  gain: number
  fadeIn: number
  fadeOut: number
}

/** +6 dB: enough to lift a quiet take, not enough to hide a mistake in a slider. */
export const MAX_CLIP_GAIN = 2
/** The shortest clip an edit may leave (10 ms): anything shorter is a click, not music. */
export const MIN_CLIP_LENGTH = 0.01
/** Loops are bounded so a dragged-out clip cannot make a project hours long by accident. */
export const MAX_CLIP_LENGTH = 60 * 60

export interface ClipSource {
  id: string
  offset: number
  duration: number
  clips?: Clip[]
}

/** The clips a track plays: its own, or the one implicit whole-audio clip at its offset. */
export function trackClips(track: ClipSource): Clip[] {
  if (track.clips) return track.clips
  return [
    {
      id: `${track.id}:whole`,
      start: track.offset,
      sourceStart: 0,
      sourceEnd: track.duration,
      length: track.duration,
      phase: 0,
      gain: 1,
      fadeIn: 0,
      fadeOut: 0,
    },
  ]
}

export const clipEnd = (c: Clip): number => c.start + c.length
export const regionLength = (c: Clip): number => c.sourceEnd - c.sourceStart
/** The clip runs past the region's end and wraps to its start (the browser's source loops). */
export const isLooped = (c: Clip): boolean => c.phase + c.length > regionLength(c) + 1e-9

/** Where the track's last clip ends on the timeline. */
export const trackEnd = (track: ClipSource): number => trackClips(track).reduce((end, c) => Math.max(end, clipEnd(c)), 0)

const finite = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

/** A clip made consistent with audio of `duration` seconds: every edit and every load ends here. */
export function normaliseClip(raw: Partial<Clip> & { id: string }, duration: number): Clip {
  const sourceStart = clamp(finite(raw.sourceStart, 0), 0, Math.max(0, duration - MIN_CLIP_LENGTH))
  const sourceEnd = clamp(finite(raw.sourceEnd, duration), sourceStart + MIN_CLIP_LENGTH, Math.max(duration, sourceStart + MIN_CLIP_LENGTH))
  const length = clamp(finite(raw.length, sourceEnd - sourceStart), MIN_CLIP_LENGTH, MAX_CLIP_LENGTH)
  const region = sourceEnd - sourceStart
  const phase = ((finite(raw.phase, 0) % region) + region) % region
  const fadeIn = clamp(finite(raw.fadeIn, 0), 0, length)
  const fadeOut = clamp(finite(raw.fadeOut, 0), 0, length - fadeIn)
  return {
    id: raw.id,
    start: Math.max(0, finite(raw.start, 0)),
    sourceStart,
    sourceEnd,
    length,
    phase,
    gain: clamp(finite(raw.gain, 1), 0, MAX_CLIP_GAIN),
    fadeIn,
    fadeOut,
  }
}

/** Stored clips (older versions, hand edits) repaired; never throws, drops what has no id. */
export function sanitizeClips(raw: unknown, duration: number): Clip[] | undefined {
  if (!Array.isArray(raw)) return undefined
  return raw.filter((c): c is Clip => !!c && typeof (c as Clip).id === 'string').map((c) => normaliseClip(c, duration))
}

/** Equal-power fade gain at u in [0, 1] of the fade (in: rising; out: falling): sin/cos of a quarter turn. */
export const fadeInGain = (u: number): number => Math.sin((Math.PI / 2) * clamp(u, 0, 1))
export const fadeOutGain = (u: number): number => Math.cos((Math.PI / 2) * clamp(u, 0, 1))

/** The clip's gain envelope at `t` seconds into the clip (fades and clip gain), for tests and drawing. */
export function clipGainAt(c: Clip, t: number): number {
  if (t < 0 || t > c.length) return 0
  let g = c.gain
  if (c.fadeIn > 0 && t < c.fadeIn) g *= fadeInGain(t / c.fadeIn)
  const outStart = c.length - c.fadeOut
  if (c.fadeOut > 0 && t > outStart) g *= fadeOutGain((t - outStart) / c.fadeOut)
  return g
}

/** The second of the audio heard `t` seconds into the clip (wrapping inside a loop). */
export function sourceTimeAt(c: Clip, t: number): number {
  const region = regionLength(c)
  const at = t + c.phase
  return c.sourceStart + (isLooped(c) ? ((at % region) + region) % region : at)
}
