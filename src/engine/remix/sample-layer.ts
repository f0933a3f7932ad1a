/**
 * A Sound Library loop layered under the remix source: stretched (WSOLA, pitch kept) from its own
 * tempo to the source's detected tempo, a whole number of beats long, and repeated from the
 * source's detected downbeat. Each repetition is placed from the grid (first beat + k × loop
 * length), never by adding lengths, so rounding never drifts the loop off the beat.
 */
import { timeStretch } from '../../../audio-worklets/kernels/time-stretch.ts'

export interface BeatGrid {
  bpm: number
  /** Seconds of the downbeat the layer starts on. */
  firstBeat: number
}

export function loopBeats(durationSeconds: number, loopBpm: number): number {
  return Math.max(1, Math.round((durationSeconds * loopBpm) / 60))
}

/** The loop mixed into a new buffer of `length` frames at `level` (0 … 1). */
export function layerLoop(loop: Float32Array, loopBpm: number, grid: BeatGrid, length: number, sampleRate: number, level: number): Float32Array {
  const beats = loopBeats(loop.length / sampleRate, loopBpm)
  const targetFrames = Math.round(((beats * 60) / grid.bpm) * sampleRate)
  const stretched = timeStretch(loop, targetFrames / loop.length, sampleRate)
  const out = new Float32Array(length)
  const period = (beats * 60) / grid.bpm
  for (let k = 0; ; k++) {
    const start = Math.round((grid.firstBeat + k * period) * sampleRate)
    if (start >= length) break
    const n = Math.min(stretched.length, length - start)
    for (let i = 0; i < n; i++) out[start + i]! += level * stretched[i]!
  }
  return out
}
