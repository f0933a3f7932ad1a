/**
 * How CUBE Radio renders a piece it joins: in segments, so the first few seconds sound while the
 * rest is still rendering. A render of the whole piece took seconds before anything played; a short
 * first segment takes a fraction of that, and each later one is longer than the time the one before
 * it plays, so rendering stays ahead of the playhead on a machine several times faster than real
 * time. Segments overlap by JOIN_SECONDS and cross there with a linear (equal-gain) fade: both sides
 * are renders of the same music (each with a pre-roll, score-renderer.ts), so their sum stays level.
 */
import { PIECE_SECONDS } from './programme.ts'

export const FIRST_SEGMENT_SECONDS = 3
/**
 * Each segment is this many times longer than the one before it: the renderer runs about 13-18
 * times faster than real time here (a segment and its pre-roll), so it stays ahead with room for a
 * machine four times slower.
 */
export const SEGMENT_GROWTH = 2
export const JOIN_SECONDS = 0.05
/** Rendered before each later segment and dropped: voices, echoes and reverb are sounding at its start. */
export const PREROLL_SECONDS = 3
/** The first segment follows nothing the listener heard: a short pre-roll brings its voices in. */
export const FIRST_PREROLL_SECONDS = 1

/** The pre-roll a segment is rendered with: none at the piece's start. */
export const prerollOf = (segment: Segment): number | undefined =>
  segment.from === 0 ? undefined : segment.joinsIn ? PREROLL_SECONDS : FIRST_PREROLL_SECONDS

export interface Segment {
  /** Piece seconds this segment covers, its overlap into the next one included. */
  from: number
  to: number
  /** It fades in over [from, from + JOIN_SECONDS] (it follows another segment). */
  joinsIn: boolean
  /** It fades out over [to - JOIN_SECONDS, to] (another segment follows). */
  joinsOut: boolean
}

/** The segments covering [start, end) of a piece: one when `start` is 0 and there is time to render it whole. */
export function segmentPlan(start: number, end = PIECE_SECONDS, first = FIRST_SEGMENT_SECONDS): Segment[] {
  const plan: Segment[] = []
  let from = Math.max(0, start)
  let length = first
  while (from < end) {
    const cut = from + length
    // A tail shorter than the first segment is not worth a join of its own: the last one takes it.
    const last = cut >= end - first
    const to = last ? end : cut + JOIN_SECONDS
    plan.push({ from, to, joinsIn: plan.length > 0, joinsOut: !last })
    if (last) break
    from = cut
    length *= SEGMENT_GROWTH
  }
  return plan
}

/** The join gain of a segment at piece time `t` (1 away from its joins, a linear ramp across them). */
export function joinGain(segment: Segment, t: number): number {
  let g = 1
  if (segment.joinsIn) g = Math.min(g, Math.max(0, (t - segment.from) / JOIN_SECONDS))
  if (segment.joinsOut) g = Math.min(g, Math.max(0, (segment.to - t) / JOIN_SECONDS))
  return g
}

const coversUntil = (s: Segment) => (s.joinsOut ? s.to - JOIN_SECONDS : s.to)

/**
 * The segments, in playing order, that carry the piece from `t` to its end; shorter when a link is
 * missing (not rendered yet), empty when none covers `t`. `segments` form one chain (a plan).
 */
export function chainFrom<S extends Segment>(segments: readonly S[], t: number): S[] {
  const chain: S[] = []
  let at = t
  for (;;) {
    const next = segments.find((s) => s.from <= at + 1e-9 && at < coversUntil(s))
    if (!next) return chain
    chain.push(next)
    if (!next.joinsOut) return chain
    at = coversUntil(next)
  }
}

/** Whether `segments` carry the piece from `t` to its end without a missing link. */
export const coversToEnd = (segments: readonly Segment[], t: number): boolean => {
  const chain = chainFrom(segments, t)
  return chain.length > 0 && !chain.at(-1)!.joinsOut
}
