/**
 * Lowpass / highpass RBJ ("Audio EQ Cookbook") biquad, Butterworth Q, stereo, Direct Form I
 * (behaves well while coefficients glide). Amount 0–100 maps logarithmically onto cutoff; 0 is a
 * true bypass, reached through a short crossfade so switching on/off never clicks.
 */
import { flush } from './denormal.ts'
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

export type BiquadMode = 'lowpass' | 'highpass'

/** Cutoff range swept by amount 1..100 (log scale). Lowpass closes downwards, highpass opens upwards. */
export const LOWPASS_RANGE_HZ = { from: 20000, to: 150 } as const
export const HIGHPASS_RANGE_HZ = { from: 20, to: 5000 } as const
export const BUTTERWORTH_Q = Math.SQRT1_2

/** Cutoff in Hz for an amount 0–100 (0 returns the open end of the range). */
export function cutoffForAmount(mode: BiquadMode, amount: number): number {
  const range = mode === 'lowpass' ? LOWPASS_RANGE_HZ : HIGHPASS_RANGE_HZ
  const t = Math.min(100, Math.max(0, amount)) / 100
  return range.from * Math.pow(range.to / range.from, t)
}

/** Normalised RBJ coefficients [b0, b1, b2, a1, a2] (a0 divided out), written into `out`. */
export function rbjCoefficients(mode: BiquadMode, cutoffHz: number, q: number, sampleRate: number, out: Float64Array): Float64Array {
  const f = Math.min(Math.max(cutoffHz, 1), sampleRate * 0.49)
  const w0 = (2 * Math.PI * f) / sampleRate
  const cosw = Math.cos(w0)
  const alpha = Math.sin(w0) / (2 * q)
  const a0 = 1 + alpha
  if (mode === 'lowpass') {
    out[0] = (1 - cosw) / 2 / a0
    out[1] = (1 - cosw) / a0
    out[2] = (1 - cosw) / 2 / a0
  } else {
    out[0] = (1 + cosw) / 2 / a0
    out[1] = -(1 + cosw) / a0
    out[2] = (1 + cosw) / 2 / a0
  }
  out[3] = (-2 * cosw) / a0
  out[4] = (1 - alpha) / a0
  return out
}

/** Processing granularity: coefficients are recomputed this often while the cutoff glides. */
const SUB_BLOCK = 16

export class BiquadKernel {
  readonly mode: BiquadMode
  private readonly sampleRate: number
  private readonly coefficients = new Float64Array(5)
  /** log2(cutoff), smoothed so sweeps are even in pitch. */
  private readonly logCutoff: Smoother
  /** 0 = bypassed, 1 = fully filtered. */
  private readonly mix: Smoother
  private xl1 = 0
  private xl2 = 0
  private yl1 = 0
  private yl2 = 0
  private xr1 = 0
  private xr2 = 0
  private yr1 = 0
  private yr2 = 0

  constructor(sampleRate: number, mode: BiquadMode, amount = 0) {
    this.sampleRate = sampleRate
    this.mode = mode
    const a = amount > 0 ? amount : 0
    this.logCutoff = new Smoother(Math.log2(cutoffForAmount(mode, a)), sampleRate, 0.02, 1e-5)
    this.mix = new Smoother(a > 0 ? 1 : 0, sampleRate)
    this.updateCoefficients()
  }

  /** Amount 0–100 (0 = bypass). */
  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.logCutoff.setTarget(Math.log2(cutoffForAmount(this.mode, a)))
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  /** Direct cutoff control (tests, other callers); enables the filter. */
  setCutoff(hz: number): void {
    if (!(hz > 0) || !Number.isFinite(hz)) return
    this.logCutoff.setTarget(Math.log2(hz))
    this.mix.setTarget(1)
  }

  /** Skip the glides (initial settings before audio starts). */
  snap(): void {
    this.logCutoff.snap(this.logCutoff.target)
    this.mix.snap(this.mix.target)
    this.updateCoefficients()
  }

  get cutoffHz(): number {
    return Math.pow(2, this.logCutoff.value)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.mix, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.xl1 = this.xl2 = this.yl1 = this.yl2 = 0
    this.xr1 = this.xr2 = this.yr1 = this.yr2 = 0
  }

  private updateCoefficients(): void {
    rbjCoefficients(this.mode, Math.pow(2, this.logCutoff.value), BUTTERWORTH_Q, this.sampleRate, this.coefficients)
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    // Short sub-blocks, with the state flushed between them: a decaying tail falls by at most
    // ~1e-7 within one (pole radius ≥ 0.4), so from the 1e-20 floor it can never reach float32
    // subnormals (1e-38). Flushing per sample instead costs several times the filter itself.
    let i = 0
    while (i < frames) {
      const end = Math.min(frames, i + SUB_BLOCK)
      if (this.logCutoff.moving) {
        this.logCutoff.advance(end - i)
        this.updateCoefficients()
      }
      this.run(inL, inR, outL, outR, i, end)
      this.xl1 = flush(this.xl1)
      this.xl2 = flush(this.xl2)
      this.yl1 = flush(this.yl1)
      this.yl2 = flush(this.yl2)
      this.xr1 = flush(this.xr1)
      this.xr2 = flush(this.xr2)
      this.yr1 = flush(this.yr1)
      this.yr2 = flush(this.yr2)
      i = end
    }
  }

  private run(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, start: number, end: number): void {
    const c = this.coefficients
    const b0 = c[0]!,
      b1 = c[1]!,
      b2 = c[2]!,
      a1 = c[3]!,
      a2 = c[4]!
    let xl1 = this.xl1,
      xl2 = this.xl2,
      yl1 = this.yl1,
      yl2 = this.yl2
    let xr1 = this.xr1,
      xr2 = this.xr2,
      yr1 = this.yr1,
      yr2 = this.yr2
    const mix = this.mix
    // The a1·y1 term last: it is the only one waiting on the previous output, so the recursion's
    // critical path is one multiply and one subtract.
    if (!mix.moving && mix.value === 1) {
      for (let i = start; i < end; i++) {
        const xl = inL[i]!
        const yl = b0 * xl + b1 * xl1 + b2 * xl2 - a2 * yl2 - a1 * yl1
        xl2 = xl1
        xl1 = xl
        yl2 = yl1
        yl1 = yl
        outL[i] = yl
        const xr = inR[i]!
        const yr = b0 * xr + b1 * xr1 + b2 * xr2 - a2 * yr2 - a1 * yr1
        xr2 = xr1
        xr1 = xr
        yr2 = yr1
        yr1 = yr
        outR[i] = yr
      }
    } else {
      for (let i = start; i < end; i++) {
        const m = mix.next()
        const xl = inL[i]!
        const yl = b0 * xl + b1 * xl1 + b2 * xl2 - a2 * yl2 - a1 * yl1
        xl2 = xl1
        xl1 = xl
        yl2 = yl1
        yl1 = yl
        outL[i] = xl + m * (yl - xl)
        const xr = inR[i]!
        const yr = b0 * xr + b1 * xr1 + b2 * xr2 - a2 * yr2 - a1 * yr1
        xr2 = xr1
        xr1 = xr
        yr2 = yr1
        yr1 = yr
        outR[i] = xr + m * (yr - xr)
      }
    }
    this.xl1 = xl1
    this.xl2 = xl2
    this.yl1 = yl1
    this.yl2 = yl2
    this.xr1 = xr1
    this.xr2 = xr2
    this.yr1 = yr1
    this.yr2 = yr2
  }
}
