/**
 * The waveform's loop gesture, as pure arithmetic: where a pointer is on the timeline, when a press
 * becomes a drag, the region a drag selects, and how a region reads.
 *
 *   timeAt(x, width, duration)                    seconds under x pixels from the waveform's left edge
 *   dragRegion(fromX, toX, width, duration)       the loop a drag selects, or null while it is a click
 *   formatLoop(region)                            'Loop 0:25 – 0:38'
 *   scaleRegion(region, ratio)                    the region on a timeline stretched by ratio
 *   markLoop(region, edge, at, duration)          the keyboard's A–B marks ('[' start, ']' end)
 */
import { formatDuration } from '../../lib/catalogue/song.ts'

export interface LoopRegion {
  start: number
  end: number
}

/**
 * A press that moves less than this (CSS pixels) is a click: it seeks. Measured in pixels, not in
 * seconds, so a tap's jitter on a narrow (phone) waveform never becomes a loop.
 */
export const MIN_DRAG_PX = 6

/** The shortest loop (seconds); a shorter selection means no loop. */
export const MIN_LOOP_SECONDS = 0.25

export function timeAt(x: number, width: number, duration: number): number {
  if (!(width > 0) || !(duration > 0)) return 0
  return Math.min(1, Math.max(0, x / width)) * duration
}

export function dragRegion(fromX: number, toX: number, width: number, duration: number): LoopRegion | null {
  if (Math.abs(toX - fromX) < MIN_DRAG_PX) return null
  const a = timeAt(fromX, width, duration)
  const b = timeAt(toX, width, duration)
  const region = { start: Math.min(a, b), end: Math.max(a, b) }
  return region.end - region.start >= MIN_LOOP_SECONDS ? region : null
}

// A loop's edges are marks to the nearest second (12.4–18.6 reads 0:12–0:19), not elapsed time.
export const formatLoop = (region: LoopRegion): string =>
  `Loop ${formatDuration(Math.round(region.start))} – ${formatDuration(Math.round(region.end))}`

/** Beat Match re-stretches the output timeline by `ratio` (old tempo / new tempo); a loop keeps its music. */
export const scaleRegion = (region: LoopRegion | null, ratio: number): LoopRegion | null =>
  region && Number.isFinite(ratio) && ratio > 0 ? { start: region.start * ratio, end: region.end * ratio } : region

/**
 * Keyboard A–B: '[' marks the loop's start at the playhead, ']' its end. The other edge stays when
 * it still makes a region of at least MIN_LOOP_SECONDS, else it goes to the source's edge (start 0,
 * end the duration); a mark that would make no region leaves the loop as it was.
 */
export function markLoop(region: LoopRegion | null, edge: 'start' | 'end', at: number, duration: number): LoopRegion | null {
  const t = Math.min(duration, Math.max(0, at))
  const next =
    edge === 'start'
      ? { start: t, end: region && region.end - t >= MIN_LOOP_SECONDS ? region.end : duration }
      : { start: region && t - region.start >= MIN_LOOP_SECONDS ? region.start : 0, end: t }
  return next.end - next.start >= MIN_LOOP_SECONDS ? next : region
}
