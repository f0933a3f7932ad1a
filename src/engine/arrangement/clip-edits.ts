/**
 * Every edit a user makes to a track's clips, pure: (clips, …) → new clips. The store applies
 * them (so undo, autosave and the engine see one new array), the timeline only computes targets.
 *
 *   snapTime(t, grid, bpm)          to the nearest grid line ('off' leaves it)
 *   moveClip / trimClipStart / trimClipEnd / loopClipTo / splitClip / duplicateClip / removeClip
 *   setClipGain / setClipFades
 *
 * Trimming reveals or hides audio (never past the audio's ends); looping changes only the length,
 * repeating the clip's region; a looped clip trimmed at its head or split keeps every later moment
 * where it was in the loop (its phase).
 */
import { MAX_CLIP_GAIN, MAX_CLIP_LENGTH, MIN_CLIP_LENGTH, clipEnd, isLooped, normaliseClip, regionLength, type Clip } from './clip.ts'

export type SnapGrid = 'off' | 'bar' | 'beat' | '1/8' | '1/16'
export const SNAP_GRIDS: readonly SnapGrid[] = ['off', 'bar', 'beat', '1/8', '1/16']
export const DEFAULT_BPM = 120
export const MIN_BPM = 40
export const MAX_BPM = 240

/** Seconds between grid lines in 4/4 at `bpm` (0 for 'off'). */
export function gridSeconds(grid: SnapGrid, bpm: number): number {
  const beat = 60 / bpm
  return grid === 'bar' ? 4 * beat : grid === 'beat' ? beat : grid === '1/8' ? beat / 2 : grid === '1/16' ? beat / 4 : 0
}

export function snapTime(t: number, grid: SnapGrid, bpm: number): number {
  const step = gridSeconds(grid, bpm)
  return step > 0 ? Math.round(t / step) * step : t
}

const edit = (clips: readonly Clip[], id: string, duration: number, change: (c: Clip) => Partial<Clip> | null): Clip[] =>
  clips.map((c) => {
    if (c.id !== id) return c
    const next = change(c)
    return next ? normaliseClip({ ...c, ...next }, duration) : c
  })

export function moveClip(clips: readonly Clip[], id: string, start: number, duration: number): Clip[] {
  return edit(clips, id, duration, () => ({ start: Math.max(0, start) }))
}

/** Moves the clip's left edge to `at` (timeline seconds), keeping what plays after it in place. */
export function trimClipStart(clips: readonly Clip[], id: string, at: number, duration: number): Clip[] {
  return edit(clips, id, duration, (c) => {
    const end = clipEnd(c)
    if (isLooped(c)) {
      // Any point of a loop can become its first moment: the phase keeps the rest where it was.
      const start = Math.min(Math.max(0, at), end - MIN_CLIP_LENGTH)
      const d = start - c.start
      return { start, length: end - start, phase: c.phase + d, fadeIn: Math.min(c.fadeIn, end - start) }
    }
    // Not before the audio's first second, not past the clip's end.
    const earliest = c.start - (c.sourceStart + c.phase)
    const start = Math.min(Math.max(0, earliest, at), end - MIN_CLIP_LENGTH)
    const d = start - c.start
    return { start, length: c.length - d, sourceStart: c.sourceStart + c.phase + d, phase: 0 }
  })
}

/** Moves the clip's right edge to `at`, revealing or hiding audio up to the audio's end (no loop). */
export function trimClipEnd(clips: readonly Clip[], id: string, at: number, duration: number): Clip[] {
  return edit(clips, id, duration, (c) => {
    if (isLooped(c)) return { length: Math.max(MIN_CLIP_LENGTH, at - c.start) }
    const length = Math.min(Math.max(MIN_CLIP_LENGTH, at - c.start), duration - c.sourceStart - c.phase)
    return { length, sourceEnd: c.sourceStart + c.phase + length }
  })
}

/** Drags the loop handle: the clip repeats its region until `at` (at least one full region). */
export function loopClipTo(clips: readonly Clip[], id: string, at: number, duration: number): Clip[] {
  return edit(clips, id, duration, (c) => ({ length: Math.min(MAX_CLIP_LENGTH, Math.max(MIN_CLIP_LENGTH, at - c.start)) }))
}

/** Cuts the clip at `at` into two that play exactly what it played; refused outside it. */
export function splitClip(clips: readonly Clip[], id: string, at: number, duration: number, newId: string): Clip[] {
  const i = clips.findIndex((c) => c.id === id)
  const c = clips[i]
  if (!c || at <= c.start + MIN_CLIP_LENGTH || at >= clipEnd(c) - MIN_CLIP_LENGTH) return [...clips]
  const d = at - c.start
  const left = normaliseClip({ ...c, length: d, fadeOut: 0, fadeIn: Math.min(c.fadeIn, d) }, duration)
  const right = isLooped(c)
    ? normaliseClip(
        { ...c, id: newId, start: at, length: c.length - d, phase: c.phase + d, fadeIn: 0, fadeOut: Math.min(c.fadeOut, c.length - d) },
        duration,
      )
    : normaliseClip(
        {
          ...c,
          id: newId,
          start: at,
          length: c.length - d,
          sourceStart: c.sourceStart + c.phase + d,
          phase: 0,
          fadeIn: 0,
          fadeOut: Math.min(c.fadeOut, c.length - d),
        },
        duration,
      )
  return [...clips.slice(0, i), left, right, ...clips.slice(i + 1)]
}

/** A copy placed right after the original (where a user expects the next bar of it). */
export function duplicateClip(clips: readonly Clip[], id: string, duration: number, newId: string): Clip[] {
  const c = clips.find((x) => x.id === id)
  if (!c) return [...clips]
  return [...clips, normaliseClip({ ...c, id: newId, start: clipEnd(c) }, duration)]
}

export function removeClip(clips: readonly Clip[], id: string): Clip[] {
  return clips.filter((c) => c.id !== id)
}

export function setClipGain(clips: readonly Clip[], id: string, gain: number, duration: number): Clip[] {
  return edit(clips, id, duration, () => ({ gain: Math.min(MAX_CLIP_GAIN, Math.max(0, gain)) }))
}

export function setClipFades(clips: readonly Clip[], id: string, fades: { fadeIn?: number; fadeOut?: number }, duration: number): Clip[] {
  return edit(clips, id, duration, (c) => {
    const fadeIn = Math.min(Math.max(0, fades.fadeIn ?? c.fadeIn), c.length)
    return { fadeIn, fadeOut: Math.min(Math.max(0, fades.fadeOut ?? c.fadeOut), c.length - fadeIn) }
  })
}

/** The clip's region in whole bars at `bpm` when it is a loop of that tempo (a Sound Library loop). */
export function loopRegionSeconds(duration: number, bpm: number): number {
  const bar = gridSeconds('bar', bpm)
  const bars = Math.max(1, Math.round(duration / bar))
  return Math.min(duration, bars * bar)
}

export { regionLength }
