/**
 * A Sound Library loop as one full-length buffer: what the remix voice plays for a layer
 * (workers/remix-prepare.ts placeLoop + audio-worklets/kernels/loop-layer.ts), written out whole.
 * Tests and the remix benchmark use it to measure where the loop's onsets land.
 */
import { LoopLayer } from '../../../audio-worklets/kernels/loop-layer.ts'
import { placeLoop } from '../../../workers/remix-prepare.ts'

export interface BeatGrid {
  bpm: number
  /** Seconds of the downbeat the layer starts on. */
  firstBeat: number
}

/** The loop mixed into a new buffer of `length` frames at `level` (0 … 1). */
export function layerLoop(
  loop: Float32Array,
  loopBpm: number,
  grid: BeatGrid,
  length: number,
  sampleRate: number,
  level: number,
): Float32Array {
  const layer = new LoopLayer(placeLoop({ pcm: loop, bpm: loopBpm }, grid.bpm, grid.firstBeat, sampleRate), sampleRate)
  const out = new Float32Array(length)
  layer.addInto(out, 0, length, level)
  return out
}
