/**
 * A sample loop laid on a beat grid: repetition k starts at frame round((firstBeat + k × period) × rate).
 * Every start is computed from the grid, never by adding loop lengths, so a loop whose length is a
 * fraction of a frame off the period never drifts off the beat. Frames before the first beat and
 * past a (short) loop's end inside its period are silent.
 *
 * Random access (`at`) serves seeks and loop regions; `fill` writes a block from an absolute frame
 * and is what the audio thread calls: O(1) per frame after one grid lookup per block.
 */
export interface LoopPlacement {
  /** The loop's samples at the render rate (already stretched to the grid's tempo). */
  loop: Float32Array
  /** Seconds of the first repetition's start (the source's downbeat). */
  firstBeat: number
  /** Seconds between repetition starts (a whole number of beats at the grid's tempo). */
  period: number
}

export class LoopLayer {
  private readonly loop: Float32Array
  private readonly first: number = 0
  private readonly periodFrames: number = 0

  constructor(placement: LoopPlacement, sampleRate: number) {
    if (!(placement.period > 0)) throw new RangeError('loop period must be positive')
    this.loop = placement.loop
    this.first = placement.firstBeat * sampleRate
    this.periodFrames = placement.period * sampleRate
  }

  /** Start frame of repetition k. */
  start(k: number): number {
    return Math.round(this.first + k * this.periodFrames)
  }

  /** The repetition playing at `frame` (−1 before the first). */
  repetitionAt(frame: number): number {
    if (frame < this.start(0)) return -1
    let k = Math.floor((frame - this.first) / this.periodFrames)
    // Rounding of the starts can put `frame` one repetition either side of the estimate.
    while (k > 0 && frame < this.start(k)) k--
    while (frame >= this.start(k + 1)) k++
    return k
  }

  at(frame: number): number {
    const k = this.repetitionAt(frame)
    if (k < 0) return 0
    const offset = frame - this.start(k)
    return offset < this.loop.length ? this.loop[offset]! : 0
  }

  /** Adds gain × the layer for frames [from, from + frames) into out[0 … frames). */
  addInto(out: Float32Array, from: number, frames: number, gain: number): void {
    if (gain === 0) return
    let k = this.repetitionAt(from)
    let next = this.start(k + 1)
    let start = k < 0 ? 0 : this.start(k)
    const loop = this.loop
    for (let i = 0; i < frames; i++) {
      const frame = from + i
      if (frame >= next) {
        k++
        start = next
        next = this.start(k + 1)
      }
      if (k < 0) continue
      const offset = frame - start
      if (offset < loop.length) out[i]! += gain * loop[offset]!
    }
  }
}
