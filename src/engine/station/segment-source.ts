/**
 * One rendered segment of a CUBE Radio piece on the context clock: from `segmentAt + offset`, through
 * the piece's own fades (a curve over what is left of it, programme.ts) and the joins with the
 * neighbouring segments (exact linear ramps, segments.ts), into the station's input.
 */
import type { IAudioContext, IGainNode } from 'standardized-audio-context'
import { pieceGain } from './programme.ts'
import { JOIN_SECONDS, joinGain, type Segment } from './segments.ts'

const CURVE_POINTS = 256

export interface SegmentPlacement {
  /** Context time of the segment's first frame. */
  segmentAt: number
  /** Seconds into the segment it starts at (a late start). */
  offset: number
  /** The piece's level (station-output.ts). */
  level: number
  into: IGainNode<IAudioContext>
}

/** Starts the segment; returns what stops it and lets its nodes go. */
export function playSegment(ctx: IAudioContext, segment: Segment & { buffer: AudioBuffer }, at: SegmentPlacement): () => void {
  const { segmentAt, offset, level } = at
  const span = segment.to - segment.from
  const rendered = segment.buffer
  const buffer = ctx.createBuffer(rendered.numberOfChannels, rendered.length, rendered.sampleRate)
  for (let c = 0; c < rendered.numberOfChannels; c++) buffer.copyToChannel(rendered.getChannelData(c), c)
  const when = segmentAt + offset
  const src = ctx.createBufferSource()
  src.buffer = buffer
  const fade = ctx.createGain()
  const curve = new Float32Array(CURVE_POINTS)
  const left = span - offset
  for (let i = 0; i < CURVE_POINTS; i++) curve[i] = level * pieceGain(segment.from + offset + (left * i) / (CURVE_POINTS - 1))
  fade.gain.value = curve[0]!
  fade.gain.setValueCurveAtTime(curve, when, left)
  const join = ctx.createGain()
  const t0 = segment.from + offset
  join.gain.setValueAtTime(joinGain(segment, t0), when)
  if (segment.joinsIn && t0 < segment.from + JOIN_SECONDS) join.gain.linearRampToValueAtTime(1, segmentAt + JOIN_SECONDS)
  if (segment.joinsOut) {
    const outAt = segmentAt + span - JOIN_SECONDS
    if (outAt > when) join.gain.setValueAtTime(1, outAt)
    join.gain.linearRampToValueAtTime(0, segmentAt + span)
  }
  src.connect(join)
  join.connect(fade)
  fade.connect(at.into)
  src.start(when, offset)
  src.stop(when + left)
  return () => {
    try {
      src.stop()
    } catch {
      // Already stopped.
    }
    src.disconnect()
    join.disconnect()
    fade.disconnect()
  }
}
