import { createYin } from './yin.ts'

/**
 * Auto Tune: YIN tracks the monophonic pitch every hop; the target is the nearest note of the
 * key's scale; the correction ratio glides towards it with the retune time (0 ms = hard
 * snap); a pitch-synchronous two-tap delay-line shifter applies the ratio sample by sample (its
 * taps sit a whole number of periods apart, so a tone keeps its phase through the crossfade).
 * Unvoiced input (noise, drums) gets ratio 1 and passes through one tap: it stays noise.
 */
export interface AutoTuneOptions {
  sampleRate: number
  /** Pitch classes allowed (0 = C). */
  scale: number[]
  /** Correction time in ms (0 = fastest). */
  retuneMs: number
}

const RING = 1 << 14
const HOP = 512

export class AutoTune {
  private readonly ring = new Float32Array(RING)
  private write = 0
  private readonly yin
  private readonly frame: Float32Array
  private sinceHop = 0
  private ratio = 1
  private target = 1
  private phase = 0.5
  private window: number
  private readonly minWindow: number
  private readonly scale: Set<number>
  private readonly glide: number

  constructor(private readonly options: AutoTuneOptions) {
    const sr = options.sampleRate
    this.yin = createYin(sr, Math.round(sr * 0.02), 80)
    this.frame = new Float32Array(this.yin.frameLength)
    this.minWindow = 2 * Math.round(sr * 0.015)
    this.window = this.minWindow
    this.scale = new Set(options.scale.map((p) => ((p % 12) + 12) % 12))
    this.glide = options.retuneMs <= 0 ? 1 : 1 - Math.exp(-HOP / ((options.retuneMs / 1000) * sr))
  }

  /** Nearest allowed MIDI note (fractional input). */
  nearestScaleNote(midi: number): number {
    let best = Math.round(midi), bestDist = Infinity
    for (let n = Math.floor(midi) - 2; n <= Math.ceil(midi) + 2; n++) {
      if (!this.scale.has(((n % 12) + 12) % 12)) continue
      const dist = Math.abs(n - midi)
      if (dist < bestDist) { bestDist = dist; best = n }
    }
    return best
  }

  private analyse(): void {
    const len = this.frame.length
    for (let i = 0; i < len; i++) this.frame[i] = this.ring[(this.write - len + i + RING) & (RING - 1)]!
    const { hz } = this.yin.detect(this.frame)
    if (hz > 0) {
      const midi = 69 + 12 * Math.log2(hz / 440)
      const goal = this.nearestScaleNote(midi)
      this.target = 2 ** ((goal - midi) / 12)
      const period = this.options.sampleRate / hz
      // Taps half a window apart, a whole number of periods.
      this.window = 2 * Math.max(1, Math.ceil(this.minWindow / 2 / period)) * period
    } else {
      this.target = 1
    }
  }

  private tap(delay: number): number {
    const pos = this.write - 1 - delay
    const i = Math.floor(pos)
    const f = pos - i
    const a = this.ring[(i + RING) & (RING - 1)]!
    const b = this.ring[(i + 1 + RING) & (RING - 1)]!
    return a + (b - a) * f
  }

  process(input: Float32Array, output: Float32Array, frames = input.length): void {
    for (let n = 0; n < frames; n++) {
      this.ring[this.write] = input[n]!
      this.write = (this.write + 1) & (RING - 1)
      if (++this.sinceHop >= HOP) {
        this.sinceHop = 0
        this.analyse()
      }
      this.ratio += (this.target - this.ratio) * (this.sinceHop === 0 ? this.glide : 0)
      // The delay shrinks (ratio > 1) or grows (ratio < 1) by (ratio − 1) samples per sample.
      this.phase -= (this.ratio - 1) / this.window
      this.phase -= Math.floor(this.phase)
      const w = this.window
      const pb = (this.phase + 0.5) % 1
      const ga = Math.sin(Math.PI * this.phase) ** 2
      output[n] = ga * this.tap(2 + this.phase * w) + (1 - ga) * this.tap(2 + pb * w)
    }
  }
}
