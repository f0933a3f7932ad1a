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

// The state lives in one Float64Array, and the block loop makes no call: V8 boxes a double passed
// to or returned from a call it does not inline (a HeapNumber each, garbage on the audio thread).
const PHASE = 0
const DELAY_A = 1
const DELAY_B = 2
const SPAN = 3
/** Which tap a re-birth moves. */
const TAP_A = 1
const TAP_B = 2

export type SampleArray = Float32Array | Float64Array

export class DelayShifter {
  /** Channel 1's output of the last `next` call (stereo shifters). */
  right = 0
  /** The delay a steady ratio-1 signal comes out with, in whole samples (so it is an exact copy). */
  readonly latency: number = 0

  private readonly left: Float32Array
  private readonly rightRing: Float32Array
  private readonly mask: number = 0
  private write = 0
  /**
   * [PHASE] crossfade phase in [0, 1): gain of tap A = sin²(π phase), tap B = cos²(π phase);
   * [DELAY_A], [DELAY_B]; [SPAN] the delay swept per turn (a whole number of periods once voiced).
   */
  private readonly state = new Float64Array(4)
  private readonly minSpan: number = 0
  private readonly maxDelay: number = 0
  private readonly settleStep: number = 0
  // One frame's arguments and results for `next`, the per-sample entry point.
  private readonly one0 = new Float64Array(1)
  private readonly one1 = new Float64Array(1)
  private readonly oneRatio = new Float64Array(1)
  private readonly onePeriod = new Float64Array(1)
  private readonly oneOn = Float64Array.of(1)
  private readonly oneOut0 = new Float64Array(1)
  private readonly oneOut1 = new Float64Array(1)

  constructor(sampleRate: number, channels: 1 | 2 = 1, minHz = 60) {
    this.minSpan = Math.round(MIN_SPAN_SECONDS * sampleRate)
    // A span is at most minSpan + one longest period; a tap may start up to two spans from the guard.
    this.maxDelay = GUARD + 2 * (this.minSpan + Math.ceil(sampleRate / minHz)) + 4
    const size = nextPow2(this.maxDelay + 4)
    this.left = new Float32Array(size)
    this.rightRing = new Float32Array(channels === 2 ? size : 1)
    this.mask = size - 1
    this.latency = GUARD + Math.floor(this.minSpan / 2)
    this.settleStep = 0.5 / (SETTLE_SECONDS * sampleRate)
    this.reset()
  }

  reset(): void {
    this.left.fill(0)
    this.rightRing.fill(0)
    this.state[PHASE] = 0.5
    this.state[SPAN] = this.minSpan
    this.state[DELAY_A] = this.state[DELAY_B] = this.latency
  }

  /** Writes one frame without reading (keeps the history current while the shifter is unused). */
  feed(x0: number, x1 = 0): void {
    this.left[this.write] = x0
    if (this.rightRing.length > 1) this.rightRing[this.write] = x1
    this.write = (this.write + 1) & this.mask
  }

  /**
   * Writes one frame and returns channel 0 shifted by `ratio` (channel 1 in `right`). `period` is
   * the input's period in samples, or 0 when unknown. (One frame of `process`.)
   */
  next(x0: number, ratio: number, period: number, x1 = 0): number {
    this.one0[0] = x0
    this.one1[0] = x1
    this.oneRatio[0] = ratio
    this.onePeriod[0] = period
    this.process(this.one0, this.one1, this.oneRatio, this.onePeriod, this.oneOn, this.oneOut0, this.oneOut1, 1)
    this.right = this.oneOut1[0]!
    return this.oneOut0[0]!
  }

  /**
   * A block: frame i is shifted by ratio[i] (`period[i]` the input's period in samples, 0 when
   * unknown) into out0[i] (channel 1 into out1[i]) where on[i] > 0, and only written to the
   * history (like `feed`; the outputs left as they are) where it is not.
   */
  process(
    in0: SampleArray,
    in1: SampleArray,
    ratio: Float64Array,
    period: Float64Array,
    on: Float64Array,
    out0: Float64Array,
    out1: Float64Array,
    frames: number,
  ): void {
    const mask = this.mask
    const left = this.left
    const rightRing = this.rightRing
    const stereo = rightRing.length > 1
    const st = this.state
    const maxDelay = this.maxDelay
    const settleStep = this.settleStep
    const minSpan = this.minSpan
    let write = this.write
    for (let n = 0; n < frames; n++) {
      left[write] = in0[n]!
      if (stereo) rightRing[write] = in1[n]!
      write = (write + 1) & mask
      if (!(on[n]! > 0)) continue

      const rate = ratio[n]! - 1
      const before = st[PHASE]!
      let phase = before
      if (rate !== 0) {
        const p = period[n]!
        // Leaving a standstill exactly on a birth point: that silent tap starts its turn properly.
        let tap = phase === 0 ? TAP_A : phase === 0.5 ? TAP_B : 0
        // Pass 0: a re-birth before the sweep, then the sweep; pass 1: one the sweep reached. (The
        // re-birth is written once, here, not as a method: called this rarely, a method stays in
        // the interpreter, which boxes every double it touches.)
        for (let pass = 0; ; pass++) {
          if (tap !== 0) {
            // Where a tap starts its turn: one span from the guard on the side it sweeps away
            // from, moved to a whole number of periods from the sounding tap so the two are in phase.
            const other = tap === TAP_A ? st[DELAY_B]! : st[DELAY_A]!
            if (p > 0) st[SPAN] = Math.ceil(minSpan / p) * p
            let d = rate > 0 ? GUARD + st[SPAN]! : GUARD
            if (p > 0) {
              d = other + Math.round((d - other) / p) * p
              while (d < GUARD) d += p
              while (d > maxDelay) d -= p
            }
            st[tap === TAP_A ? DELAY_A : DELAY_B] = d
          }
          if (pass === 1) break
          st[DELAY_A]! -= rate
          st[DELAY_B]! -= rate
          phase += (rate > 0 ? rate : -rate) / st[SPAN]!
          if (phase >= 1) {
            phase -= 1
            tap = TAP_A
          } else {
            tap = phase >= 0.5 && before < 0.5 ? TAP_B : 0
          }
        }
      } else if (phase !== 0.5 && phase !== 0) {
        // Settle onto the tap that is already louder, without crossing a re-birth point.
        if (phase < 0.25) phase = Math.max(0, phase - settleStep)
        else if (phase < 0.75) phase = phase < 0.5 ? Math.min(0.5, phase + settleStep) : Math.max(0.5, phase - settleStep)
        else if ((phase += settleStep) >= 1) phase = 0
      }
      st[PHASE] = phase

      // sin²(π p) by Bhaskara's approximation of sin (max error 0.0016); B gets exactly 1 − A.
      const u = 4 * phase * (1 - phase)
      const s = (4 * u) / (5 - u)
      const ga = s * s
      const gb = 1 - ga
      const da = st[DELAY_A]!
      const db = st[DELAY_B]!
      // Math.min/max, not a ternary choosing between GUARD, maxDelay and the delay: V8 made that
      // choice a tagged value and boxed the delay in every frame. (The same value, NaN included.)
      const a = Math.min(maxDelay, Math.max(GUARD, da))
      const b = Math.min(maxDelay, Math.max(GUARD, db))
      // The input `a` (`b`) samples ago (0 = the sample just written), linearly interpolated.
      const posA = write - 1 - a
      const ia = Math.floor(posA)
      const fa = posA - ia
      const ia0 = ia & mask
      const ia1 = (ia + 1) & mask
      const posB = write - 1 - b
      const ib = Math.floor(posB)
      const fb = posB - ib
      const ib0 = ib & mask
      const ib1 = (ib + 1) & mask
      if (stereo) {
        const ra = rightRing[ia0]!
        const rb = rightRing[ib0]!
        out1[n] = ga * (ra + (rightRing[ia1]! - ra) * fa) + gb * (rb + (rightRing[ib1]! - rb) * fb)
      }
      const la = left[ia0]!
      const lb = left[ib0]!
      if (gb === 0) out0[n] = la + (left[ia1]! - la) * fa
      else if (ga === 0) out0[n] = lb + (left[ib1]! - lb) * fb
      else out0[n] = ga * (la + (left[ia1]! - la) * fa) + gb * (lb + (left[ib1]! - lb) * fb)
    }
    this.write = write
  }
}
