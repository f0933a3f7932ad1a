// Feed-forward compressor, stereo-linked peak envelope, hard knee in dB, makeup gain, the gain
// computer every 16 frames with a linear ramp between: kernels/compressor.ts in the same order of
// operations. The envelope is one scalar recursion; the gain is applied to both channels at once.
import { Smoother, IdleGate } from './smoothing'
import { loadFrame, splat, storeFrame } from './stereo'

const GAIN_INTERVAL: i32 = 16
const LN10_OVER_20: f64 = Math.LN10 / 20
const MIN_LEVEL: f64 = 1e-9

export class Compressor {
  sampleRate: f64
  thresholdDb: f64 = 0
  slope: f64 = 0
  makeupDb: f64 = 0
  attackCoef: f64 = 0
  releaseCoef: f64 = 0
  envelope: f64 = 0
  gain: f64 = 1
  reductionDb: f64 = 0
  mix: Smoother
  gate: IdleGate = new IdleGate()

  constructor(sampleRate: f64) {
    this.sampleRate = sampleRate
    this.mix = new Smoother(0, sampleRate)
    this.configureForAmount(1)
    this.gain = Math.exp(this.makeupDb * LN10_OVER_20)
  }

  configure(thresholdDb: f64, ratio: f64, makeupDb: f64, attackSeconds: f64, releaseSeconds: f64): void {
    if (!isFinite<f64>(thresholdDb) || !isFinite<f64>(ratio) || !isFinite<f64>(makeupDb)) return
    if (!isFinite<f64>(attackSeconds) || !isFinite<f64>(releaseSeconds)) return
    this.thresholdDb = Math.min(0, thresholdDb)
    this.slope = 1 - 1 / Math.max(1, ratio)
    this.makeupDb = Math.min(24, Math.max(-24, makeupDb))
    this.attackCoef = 1 - Math.exp(-1 / (Math.max(1e-4, attackSeconds) * this.sampleRate))
    this.releaseCoef = 1 - Math.exp(-1 / (Math.max(1e-3, releaseSeconds) * this.sampleRate))
  }

  /** compressorSettingsForAmount: harder and lower as amount rises. */
  configureForAmount(amount: f64): void {
    const a = Math.min(100, Math.max(0, amount))
    const thresholdDb = -6 - 0.3 * a
    const ratio = 1 + 0.07 * a
    const makeupDb = 0.5 * -thresholdDb * (1 - 1 / ratio)
    this.configure(thresholdDb, ratio, makeupDb, 0.01, 0.12)
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.configureForAmount(a)
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  snap(): void {
    this.mix.snap(this.mix.target)
    const levelDb = this.envelope > MIN_LEVEL ? 20 * Math.log10(this.envelope) : -180
    const over = levelDb - this.thresholdDb
    this.gain = Math.exp(((over > 0 ? -over * this.slope : 0) + this.makeupDb) * LN10_OVER_20)
  }

  active(): bool {
    const g = this.gate.check(this.mix)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    this.envelope = 0
    this.gain = Math.exp(this.makeupDb * LN10_OVER_20)
    this.reductionDb = 0
  }

  process(io: usize, frames: i32): void {
    const att = this.attackCoef
    const rel = this.releaseCoef
    const cs = 0.5 * (att + rel)
    const cd = 0.5 * (att - rel)
    const keep = 1 - cs
    const mix = this.mix
    let env = this.envelope
    let gain = this.gain
    for (let start = 0; start < frames; start += GAIN_INTERVAL) {
      const end = min(frames, start + GAIN_INTERVAL)
      for (let i = start; i < end; i++) {
        const p = io + (<usize>i << 3)
        const pl = Math.abs(<f64>load<f32>(p))
        const pr = Math.abs(<f64>load<f32>(p, 4))
        const peak = 0.5 * (pl + pr + Math.abs(pl - pr))
        env = keep * env + cs * peak + cd * Math.abs(peak - env)
      }
      if (env < MIN_LEVEL) env = 0
      const levelDb = env > MIN_LEVEL ? 20 * Math.log10(env) : -180
      const over = levelDb - this.thresholdDb
      const reduction = over > 0 ? -over * this.slope : 0
      this.reductionDb = reduction
      const target = Math.exp((reduction + this.makeupDb) * LN10_OVER_20)
      const step = (target - gain) / <f64>(end - start)
      if (!mix.moving() && mix.value == 1) {
        for (let i = start; i < end; i++) {
          gain += step
          const p = io + (<usize>i << 3)
          storeFrame(p, f64x2.mul(loadFrame(p), splat(gain)))
        }
      } else {
        for (let i = start; i < end; i++) {
          gain += step
          const p = io + (<usize>i << 3)
          const x = loadFrame(p)
          const m = splat(mix.next())
          storeFrame(p, f64x2.add(x, f64x2.mul(m, f64x2.sub(f64x2.mul(x, splat(gain)), x))))
        }
      }
      gain = target
    }
    this.envelope = env
    this.gain = gain
  }
}
