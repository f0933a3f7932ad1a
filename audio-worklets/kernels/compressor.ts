/**
 * Feed-forward compressor: stereo-linked peak envelope (separate attack and release), hard-knee
 * gain computer in dB, makeup gain. The envelope runs per sample; the gain computer (log/exp) runs
 * every GAIN_INTERVAL samples with the gain interpolated linearly in between, which keeps it cheap
 * without steps. Amount 0–100 drives threshold and ratio together; 0 is bypass (crossfaded).
 */
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

const GAIN_INTERVAL = 16
const LN10_OVER_20 = Math.LN10 / 20
const MIN_LEVEL = 1e-9

export interface CompressorSettings {
  thresholdDb: number
  ratio: number
  makeupDb: number
  attackSeconds: number
  releaseSeconds: number
}

/** The strip's single control: harder and lower as amount rises; makeup restores half the reduction at 0 dBFS. */
export function compressorSettingsForAmount(amount: number): CompressorSettings {
  const a = Math.min(100, Math.max(0, amount))
  const thresholdDb = -6 - 0.3 * a
  const ratio = 1 + 0.07 * a
  const makeupDb = 0.5 * -thresholdDb * (1 - 1 / ratio)
  return { thresholdDb, ratio, makeupDb, attackSeconds: 0.01, releaseSeconds: 0.12 }
}

/** Static gain (dB) the compressor applies to a steady level (dB): the design curve tests check against. */
export function staticGainDb(levelDb: number, s: Pick<CompressorSettings, 'thresholdDb' | 'ratio' | 'makeupDb'>): number {
  const over = levelDb - s.thresholdDb
  return (over > 0 ? -over * (1 - 1 / s.ratio) : 0) + s.makeupDb
}

export class CompressorKernel {
  private readonly sampleRate: number
  private thresholdDb = 0
  private slope = 0 // 1 - 1/ratio
  private makeupDb = 0
  private attackCoef = 0
  private releaseCoef = 0
  private envelope = 0
  private gain = 1
  private readonly mix: Smoother
  /** Last computed gain reduction in dB (≤ 0), for meters. */
  reductionDb = 0

  constructor(sampleRate: number, amount = 0) {
    this.sampleRate = sampleRate
    const a = amount > 0 ? Math.min(100, amount) : 0
    this.mix = new Smoother(a > 0 ? 1 : 0, sampleRate)
    this.configure(compressorSettingsForAmount(a > 0 ? a : 1))
    this.gain = Math.exp(this.makeupDb * LN10_OVER_20)
  }

  /** Explicit design (tests, other callers); enables the compressor. */
  configure(s: CompressorSettings): void {
    if (![s.thresholdDb, s.ratio, s.makeupDb, s.attackSeconds, s.releaseSeconds].every(Number.isFinite)) return
    this.thresholdDb = Math.min(0, s.thresholdDb)
    this.slope = 1 - 1 / Math.max(1, s.ratio)
    this.makeupDb = Math.min(24, Math.max(-24, s.makeupDb))
    this.attackCoef = 1 - Math.exp(-1 / (Math.max(1e-4, s.attackSeconds) * this.sampleRate))
    this.releaseCoef = 1 - Math.exp(-1 / (Math.max(1e-3, s.releaseSeconds) * this.sampleRate))
  }

  enable(on: boolean): void {
    this.mix.setTarget(on ? 1 : 0)
  }

  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.configure(compressorSettingsForAmount(a))
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  snap(): void {
    this.mix.snap(this.mix.target)
    // Start from the static gain for the current envelope, so the first block does not ramp.
    const levelDb = this.envelope > MIN_LEVEL ? 20 * Math.log10(this.envelope) : -180
    const over = levelDb - this.thresholdDb
    this.gain = Math.exp(((over > 0 ? -over * this.slope : 0) + this.makeupDb) * LN10_OVER_20)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.mix, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.envelope = 0
    this.gain = Math.exp(this.makeupDb * LN10_OVER_20)
    this.reductionDb = 0
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const att = this.attackCoef
    const rel = this.releaseCoef
    const cs = 0.5 * (att + rel)
    const cd = 0.5 * (att - rel)
    const keep = 1 - cs
    const mix = this.mix
    let env = this.envelope
    let gain = this.gain
    for (let start = 0; start < frames; start += GAIN_INTERVAL) {
      const end = Math.min(frames, start + GAIN_INTERVAL)
      // Envelope over this sub-block first (feed-forward: detector sees the input).
      // Branch-free: on noise every compare-and-branch here mispredicts half the time.
      // env + c·(p − env) with c = att when p > env, else rel, written as
      // keep·env + cs·p + cd·|p − env| (cs, cd the mean and half-difference of the two): the same
      // up to rounding, and only a subtract, abs, multiply and add wait on the previous sample.
      for (let i = start; i < end; i++) {
        const pl = Math.abs(inL[i]!)
        const pr = Math.abs(inR[i]!)
        const p = 0.5 * (pl + pr + Math.abs(pl - pr)) // max(pl, pr); Math.max branches
        env = keep * env + cs * p + cd * Math.abs(p - env)
      }
      if (env < MIN_LEVEL) env = 0
      const levelDb = env > MIN_LEVEL ? 20 * Math.log10(env) : -180
      const over = levelDb - this.thresholdDb
      const reduction = over > 0 ? -over * this.slope : 0
      this.reductionDb = reduction
      const target = Math.exp((reduction + this.makeupDb) * LN10_OVER_20)
      const step = (target - gain) / (end - start)
      if (!mix.moving && mix.value === 1) {
        for (let i = start; i < end; i++) {
          gain += step
          outL[i] = inL[i]! * gain
          outR[i] = inR[i]! * gain
        }
      } else {
        for (let i = start; i < end; i++) {
          gain += step
          const xl = inL[i]!
          const xr = inR[i]!
          const m = mix.next()
          outL[i] = xl + m * (xl * gain - xl)
          outR[i] = xr + m * (xr * gain - xr)
        }
      }
      gain = target
    }
    this.envelope = env
    this.gain = gain
  }
}
