/**
 * Waveshaping distortion: drive gain into a saturating tanh-like curve, run at 2x the sample rate
 * (halfband up/down filtering) so the harmonics it creates do not alias, then level-compensated so
 * turning drive up changes colour rather than loudness. Amount 0 is bypass (crossfaded).
 */
import { flush } from './denormal.ts'
import { HALFBAND_CHUNK, HalfbandChannel, halfbandOddTaps, ODD_TAPS } from './halfband.ts'
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

/** Drive at amount 100, in dB (amount maps linearly in dB, i.e. logarithmically in gain). */
export const MAX_DRIVE_DB = 36

export function driveForAmount(amount: number): number {
  const a = Math.min(100, Math.max(0, amount))
  return Math.pow(10, ((a / 100) * MAX_DRIVE_DB) / 20)
}

/**
 * Padé tanh approximation, clipped at |x| = 3 where it reaches exactly ±1 with zero slope: smooth,
 * odd, monotonic and several times cheaper than Math.tanh.
 */
export function softClip(x: number): number {
  if (x >= 3) return 1
  if (x <= -3) return -1
  const x2 = x * x
  return (x * (27 + x2)) / (27 + 9 * x2)
}

/** Output gain for a drive: saturated output sits near full scale, so scale by 1/sqrt(drive). */
export function compensationForDrive(drive: number): number {
  return 1 / Math.sqrt(drive)
}

export interface DistortionOptions {
  /** 2 (default) or 1; 1 exists so tests can measure what oversampling buys. */
  oversample?: 1 | 2
}

export class DistortionKernel {
  private readonly drive: Smoother
  private readonly mix: Smoother
  private readonly oversample: 1 | 2
  private readonly left: HalfbandChannel
  private readonly right: HalfbandChannel
  private readonly latency: number
  // Per-sample drive, output gain, mix and wet output while a control glides (one chunk at a time).
  private readonly drives = new Float64Array(HALFBAND_CHUNK)
  private readonly gains = new Float64Array(HALFBAND_CHUNK)
  private readonly mixes = new Float64Array(HALFBAND_CHUNK)
  private readonly wetL = new Float32Array(HALFBAND_CHUNK)
  private readonly wetR = new Float32Array(HALFBAND_CHUNK)

  constructor(sampleRate: number, amount = 0, options: DistortionOptions = {}) {
    this.oversample = options.oversample ?? 2
    const a = amount > 0 ? Math.min(100, amount) : 0
    this.drive = new Smoother(driveForAmount(a), sampleRate)
    this.mix = new Smoother(a > 0 ? 1 : 0, sampleRate)
    const taps = halfbandOddTaps()
    this.left = new HalfbandChannel(taps)
    this.right = new HalfbandChannel(taps)
    // Up (P) + down (P-1) base-rate samples of delay.
    this.latency = this.oversample === 2 ? ODD_TAPS - 1 : 0
  }

  /**
   * Latency of the wet path in samples. The on/off crossfade deliberately uses the undelayed dry
   * signal: bypass has no latency, so a delayed dry would itself jump when the effect switches
   * on; the 0.3 ms offset only colours the 10 ms fade.
   */
  get latencySamples(): number {
    return this.latency
  }

  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.drive.setTarget(driveForAmount(a))
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  snap(): void {
    this.drive.snap(this.drive.target)
    this.mix.snap(this.mix.target)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.mix, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.left.reset()
    this.right.reset()
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const drive = this.drive
    const mix = this.mix
    const L = this.left
    const R = this.right
    let g = drive.value
    let comp = compensationForDrive(g)
    const steady = !drive.moving && !mix.moving && mix.value === 1
    if (this.oversample === 2) {
      if (steady) {
        L.shapeBlock(inL, outL, frames, g, comp)
        R.shapeBlock(inR, outR, frames, g, comp)
        return
      }
      const drives = this.drives
      const gains = this.gains
      const mixes = this.mixes
      const wetL = this.wetL
      const wetR = this.wetR
      for (let start = 0; start < frames; start += HALFBAND_CHUNK) {
        const n = Math.min(HALFBAND_CHUNK, frames - start)
        for (let i = 0; i < n; i++) {
          const gi = drive.next()
          drives[i] = gi
          gains[i] = compensationForDrive(gi)
          mixes[i] = mix.next()
        }
        L.shapeBlockVarying(inL, start, wetL, n, drives, gains)
        R.shapeBlockVarying(inR, start, wetR, n, drives, gains)
        for (let i = 0; i < n; i++) {
          const m = mixes[i]!
          const xl = inL[start + i]!
          const xr = inR[start + i]!
          outL[start + i] = flush(xl + m * (wetL[i]! - xl))
          outR[start + i] = flush(xr + m * (wetR[i]! - xr))
        }
      }
      return
    }
    for (let i = 0; i < frames; i++) {
      if (!steady) {
        g = drive.next()
        comp = compensationForDrive(g)
      }
      const xl = inL[i]!
      const xr = inR[i]!
      const yl = softClip(g * xl) * comp
      const yr = softClip(g * xr) * comp
      if (steady) {
        outL[i] = yl
        outR[i] = yr
      } else {
        const m = mix.next()
        outL[i] = flush(xl + m * (yl - xl))
        outR[i] = flush(xr + m * (yr - xr))
      }
    }
  }
}
