/**
 * A look-ahead true-peak limiter (linked channels): the output's true peak stays at or below the
 * ceiling (−1 dBTP for the player's loudness normalisation), and below it the signal passes
 * untouched, only delayed. It acts only when needed: a song boosted to its loudness target whose
 * peaks would cross the ceiling has those peaks turned down, nothing else.
 *
 * Per input sample: the true peak of the newest samples (4× oversampled by ITU-R BS.1770-4 Annex 2's
 * interpolating FIR, as dsp/true-peak.ts measures it; the audio thread cannot import dsp/), the gain
 * that peak needs (ceiling / peak, at most 1), the smallest such gain over a window covering the
 * look-ahead, released upward with a one-pole glide, then averaged over the look-ahead: the gain
 * ramps down smoothly and is at or below what each peak needs by the time that peak, delayed by
 * `latencyFrames`, reaches the output. No allocation after construction.
 */
import { onePoleCoefficient } from './smoothing.ts'

/** BS.1770-4 Annex 2: four 12-tap phases of the 48-tap 4× interpolation filter. */
const PHASES: readonly (readonly number[])[] = [
  [
    0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875,
    0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125,
  ],
  [
    -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625, 0.77978515625, -0.2003173828125,
    0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375,
  ],
  [
    -0.0189208984375, 0.0330810546875, -0.0582275390625, 0.1015625, -0.2003173828125, 0.77978515625, 0.465087890625, -0.16650390625,
    0.089111328125, -0.0517578125, 0.029296875, -0.0291748046875,
  ],
  [
    -0.00830078125, 0.014892578125, -0.026611328125, 0.047607421875, -0.102294921875, 0.97216796875, 0.1373291015625, -0.0594482421875,
    0.033203125, -0.0196533203125, 0.010986328125, 0.001708984375,
  ],
]
const TAPS = 12
// The interpolated points of the newest 12 samples lie about 6 samples back; the window and the
// delay cover that span and one sample either side.
const FILTER_SPAN = 16
const CEILING_MARGIN_DB = 0.05
const RELEASED = 0
const SUM = 1
const LOWEST = 2

export interface TruePeakLimiterOptions {
  /** The highest output true peak, dBTP. */
  ceilingDb?: number
  /** How far ahead the gain starts to fall before a peak (the attack), seconds. */
  lookaheadSeconds?: number
  /** Time constant of the gain's return to 1 after a peak, seconds. */
  releaseSeconds?: number
}

export class TruePeakLimiter {
  /** Frames from input to output. */
  readonly latencyFrames: number
  private readonly ceiling: number
  private readonly lookahead: number
  private readonly window: number
  private readonly release: number
  private readonly channels: number
  /** Per channel: the last TAPS input samples, twice over, so a FIR window is one contiguous run. */
  private readonly history: Float64Array[]
  private historyAt = 0
  /** Per channel: the delay line. */
  private readonly delay: Float32Array[]
  private delayAt = 0
  /** Sliding minimum of the needed gain: a monotonic queue of (index, gain) in a ring. */
  private readonly minIndex: Float64Array
  private readonly minGain: Float64Array
  private minHead = 0
  private minTail = 0
  private frame = 0
  /** The look-ahead average of the released gain: a ring of its last values. */
  private readonly box: Float64Array
  private boxAt = 0
  /**
   * The running doubles, in a typed array: V8 keeps a double in an object field as a heap number and
   * may box a fresh one on each write. [released gain, the box's sum, the lowest gain since read].
   */
  private readonly state = Float64Array.of(1, 0, 1)

  constructor(sampleRate: number, channels: number, options: TruePeakLimiterOptions = {}) {
    this.channels = channels
    // Aimed a little under the ceiling: the gain changing within the interpolation filter's span can
    // lift an output's inter-sample peak a few thousandths of a dB over what was asked.
    this.ceiling = 10 ** (((options.ceilingDb ?? -1) - CEILING_MARGIN_DB) / 20)
    this.lookahead = Math.max(1, Math.round((options.lookaheadSeconds ?? 0.0015) * sampleRate))
    this.window = this.lookahead + FILTER_SPAN
    this.latencyFrames = this.lookahead + FILTER_SPAN / 2
    this.release = onePoleCoefficient(options.releaseSeconds ?? 0.08, sampleRate)
    this.history = Array.from({ length: channels }, () => new Float64Array(2 * TAPS))
    this.delay = Array.from({ length: channels }, () => new Float32Array(this.latencyFrames))
    this.minIndex = new Float64Array(this.window + 1)
    this.minGain = new Float64Array(this.window + 1)
    this.box = new Float64Array(this.lookahead).fill(1)
    this.state[SUM] = this.lookahead
  }

  /** The smallest gain applied since the last call, then resets it (1 = no limiting). */
  takeLowestGain(): number {
    const g = this.state[LOWEST]!
    this.state[LOWEST] = 1
    return g
  }

  /**
   * Limits `frames` frames of `input` into `output` (channel arrays; a missing input channel is
   * silence, a missing output channel is skipped). `output` may be `input`.
   */
  process(input: readonly (Float32Array | undefined)[], output: readonly (Float32Array | undefined)[], frames: number): void {
    const size = this.window + 1
    for (let i = 0; i < frames; i++) {
      // The newest sample into each channel's FIR history; the true peak of the newest window.
      let peak = 0
      const h = this.historyAt
      for (let c = 0; c < this.channels; c++) {
        // Not `input[c]?.[i] ?? 0`: V8 boxes the double that expression yields (a heap number per sample).
        const source = input[c]
        const x = source !== undefined ? source[i]! : 0
        const hist = this.history[c]!
        hist[h] = x
        hist[h + TAPS] = x
        const a = Math.abs(x)
        if (a > peak) peak = a
        for (let p = 0; p < 4; p++) {
          const taps = PHASES[p]!
          let y = 0
          for (let k = 0; k < TAPS; k++) y += taps[k]! * hist[h + 1 + k]!
          const ay = Math.abs(y)
          if (ay > peak) peak = ay
        }
      }
      this.historyAt = (h + 1) % TAPS
      const needed = peak > this.ceiling ? this.ceiling / peak : 1

      // Sliding minimum over the last `window` frames.
      while (this.minTail !== this.minHead && this.minGain[(this.minTail - 1 + size) % size]! >= needed)
        this.minTail = (this.minTail - 1 + size) % size
      this.minIndex[this.minTail] = this.frame
      this.minGain[this.minTail] = needed
      this.minTail = (this.minTail + 1) % size
      while (this.minIndex[this.minHead]! <= this.frame - this.window) this.minHead = (this.minHead + 1) % size
      const floor = this.minGain[this.minHead]!
      this.frame++

      // Down at once, back up with the release glide; then the look-ahead average.
      const state = this.state
      const before = state[RELEASED]!
      const released = floor < before ? floor : before + (floor - before) * this.release
      state[RELEASED] = released
      const sum = state[SUM]! + released - this.box[this.boxAt]!
      state[SUM] = sum
      this.box[this.boxAt] = released
      this.boxAt = (this.boxAt + 1) % this.lookahead
      let gain = sum / this.lookahead
      if (gain > 1) gain = 1
      if (gain < state[LOWEST]!) state[LOWEST] = gain

      const d = this.delayAt
      for (let c = 0; c < this.channels; c++) {
        const line = this.delay[c]!
        const delayed = line[d]!
        const source = input[c]
        line[d] = source !== undefined ? source[i]! : 0
        const out = output[c]
        if (out !== undefined) out[i] = delayed * gain
      }
      this.delayAt = (d + 1) % this.latencyFrames
    }
    // Rounding in the running sum must not drift: rebuild it now and then.
    if (this.frame % 65_536 < frames) {
      let sum = 0
      for (let k = 0; k < this.lookahead; k++) sum += this.box[k]!
      this.state[SUM] = sum
    }
  }
}
