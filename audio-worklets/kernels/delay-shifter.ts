/**
 * Pitch-synchronous two-tap delay-line pitch shifter (Auto Tune's and Harmonize's voices).
 *
 * Each tap reads the recent input at a delay that shrinks (ratio > 1) or grows (ratio < 1) by
 * ratio − 1 samples per sample, which plays it back `ratio` times faster. A tap can only do that
 * for so long, so two taps take turns: their gains are sin² / cos² of one crossfade phase, and a
 * tap is only ever moved (re-born) at the instant its gain is zero, so no gain and no delay ever
 * jumps. A re-born tap is placed a whole number of periods (`period`, when the caller knows it)
 * from the other one, so during the crossfade both read the same point of the waveform: a tone
 * keeps its phase and its level (no beating, no comb). Without a period (unvoiced input) the
 * crossfades are noise against noise and sum in power closely enough.
 *
 * At ratio 1 the delays stand still and the crossfade settles onto one tap (a plain delayed copy,
 * not two delays summed, which would comb-filter noise and drums).
 *
 * One or two channels share the delays and gains, so a stereo signal stays coherent.
 */

/** Shortest tap lifetime span in seconds (a tap sweeps about this much delay per turn). */
const MIN_SPAN_SECONDS = 0.03
/** Shortest delay a tap reads (the interpolation needs the sample after it). */
const GUARD = 2
/** Time to settle onto one tap at ratio 1. */
const SETTLE_SECONDS = 0.03

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(2, n)))

export class DelayShifter {
  /** Channel 1's output of the last `next` call (stereo shifters). */
  right = 0
  /** The delay a steady ratio-1 signal comes out with, in whole samples (so it is an exact copy). */
  readonly latency: number

  private readonly left: Float32Array
  private readonly rightRing: Float32Array
  private readonly mask: number
  private write = 0
  /** Crossfade phase in [0, 1): gain of tap A = sin²(π phase), tap B = cos²(π phase). */
  private phase = 0.5
  private delayA: number
  private delayB: number
  /** Delay swept per turn (a whole number of periods once voiced). */
  private span: number
  private readonly minSpan: number
  private readonly maxDelay: number
  private readonly settleStep: number

  constructor(sampleRate: number, channels: 1 | 2 = 1, minHz = 60) {
    this.minSpan = Math.round(MIN_SPAN_SECONDS * sampleRate)
    // A span is at most minSpan + one longest period; a tap may start up to two spans from the guard.
    this.maxDelay = GUARD + 2 * (this.minSpan + Math.ceil(sampleRate / minHz)) + 4
    const size = nextPow2(this.maxDelay + 4)
    this.left = new Float32Array(size)
    this.rightRing = new Float32Array(channels === 2 ? size : 1)
    this.mask = size - 1
    this.span = this.minSpan
    this.latency = GUARD + Math.floor(this.minSpan / 2)
    this.delayA = this.delayB = this.latency
    this.settleStep = 0.5 / (SETTLE_SECONDS * sampleRate)
  }

  reset(): void {
    this.left.fill(0)
    this.rightRing.fill(0)
    this.phase = 0.5
    this.span = this.minSpan
    this.delayA = this.delayB = this.latency
  }

  /** Writes one frame without reading (keeps the history current while the shifter is unused). */
  feed(x0: number, x1 = 0): void {
    this.left[this.write] = x0
    if (this.rightRing.length > 1) this.rightRing[this.write] = x1
    this.write = (this.write + 1) & this.mask
  }

  /**
   * Writes one frame and returns channel 0 shifted by `ratio` (channel 1 in `right`). `period` is
   * the input's period in samples, or 0 when unknown.
   */
  next(x0: number, ratio: number, period: number, x1 = 0): number {
    const mask = this.mask
    this.left[this.write] = x0
    const stereo = this.rightRing.length > 1
    if (stereo) this.rightRing[this.write] = x1
    this.write = (this.write + 1) & mask

    const rate = ratio - 1
    let phase = this.phase
    if (rate !== 0) {
      // Leaving a standstill exactly on a birth point: that silent tap starts its turn properly.
      if (phase === 0) this.delayA = this.reborn(this.delayB, rate, period)
      else if (phase === 0.5) this.delayB = this.reborn(this.delayA, rate, period)
      this.delayA -= rate
      this.delayB -= rate
      phase += (rate > 0 ? rate : -rate) / this.span
      if (phase >= 1) {
        phase -= 1
        this.delayA = this.reborn(this.delayB, rate, period)
      } else if (phase >= 0.5 && this.phase < 0.5) {
        this.delayB = this.reborn(this.delayA, rate, period)
      }
    } else if (phase !== 0.5 && phase !== 0) {
      // Settle onto the tap that is already louder, without crossing a re-birth point.
      if (phase < 0.25) phase = Math.max(0, phase - this.settleStep)
      else if (phase < 0.75) phase = phase < 0.5 ? Math.min(0.5, phase + this.settleStep) : Math.max(0.5, phase - this.settleStep)
      else if ((phase += this.settleStep) >= 1) phase = 0
    }
    this.phase = phase

    // sin²(π p) by Bhaskara's approximation of sin (max error 0.0016); B gets exactly 1 − A.
    const u = 4 * phase * (1 - phase)
    const s = (4 * u) / (5 - u)
    const ga = s * s
    const gb = 1 - ga
    const a = this.delayA < GUARD ? GUARD : this.delayA > this.maxDelay ? this.maxDelay : this.delayA
    const b = this.delayB < GUARD ? GUARD : this.delayB > this.maxDelay ? this.maxDelay : this.delayB
    const w = this.write
    if (stereo) this.right = ga * read(this.rightRing, w, a, mask) + gb * read(this.rightRing, w, b, mask)
    if (gb === 0) return read(this.left, w, a, mask)
    if (ga === 0) return read(this.left, w, b, mask)
    return ga * read(this.left, w, a, mask) + gb * read(this.left, w, b, mask)
  }

  /**
   * Where a tap starts its turn: one span from the guard on the side it sweeps away from, moved to
   * a whole number of periods from the sounding tap so the two are in phase.
   */
  private reborn(other: number, rate: number, period: number): number {
    if (period > 0) this.span = Math.ceil(this.minSpan / period) * period
    const ideal = rate > 0 ? GUARD + this.span : GUARD
    if (!(period > 0)) return ideal
    let d = other + Math.round((ideal - other) / period) * period
    while (d < GUARD) d += period
    while (d > this.maxDelay) d -= period
    return d
  }
}

/** The input `delay` samples ago (0 = the sample just written), linearly interpolated. */
function read(ring: Float32Array, write: number, delay: number, mask: number): number {
  const pos = write - 1 - delay
  const i = Math.floor(pos)
  const f = pos - i
  const a = ring[i & mask]!
  return a + (ring[(i + 1) & mask]! - a) * f
}
