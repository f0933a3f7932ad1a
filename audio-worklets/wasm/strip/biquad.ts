// Lowpass / highpass RBJ biquad, Butterworth Q, Direct Form I, both channels in one f64x2: the
// arithmetic of kernels/biquad.ts in the same order (amount → log cutoff glide, 16-frame
// sub-blocks with a coefficient update while gliding, crossfaded bypass, state flushed per sub-block).
import { Smoother, IdleGate } from './smoothing'
import { flush2, loadFrame, splat, storeFrame } from './stereo'

const SUB_BLOCK: i32 = 16
export const BUTTERWORTH_Q: f64 = Math.SQRT1_2

export function cutoffForAmount(lowpass: bool, amount: f64): f64 {
  const from: f64 = lowpass ? 20000 : 20
  const to: f64 = lowpass ? 150 : 5000
  const t = Math.min(100, Math.max(0, amount)) / 100
  return from * Math.pow(to / from, t)
}

export class Biquad {
  lowpass: bool
  sampleRate: f64
  b0: f64 = 0
  b1: f64 = 0
  b2: f64 = 0
  a1: f64 = 0
  a2: f64 = 0
  logCutoff: Smoother
  mix: Smoother
  gate: IdleGate = new IdleGate()
  x1: v128 = f64x2.splat(0)
  x2: v128 = f64x2.splat(0)
  y1: v128 = f64x2.splat(0)
  y2: v128 = f64x2.splat(0)

  constructor(sampleRate: f64, lowpass: bool) {
    this.sampleRate = sampleRate
    this.lowpass = lowpass
    this.logCutoff = new Smoother(Math.log2(cutoffForAmount(lowpass, 0)), sampleRate, 0.02, 1e-5)
    this.mix = new Smoother(0, sampleRate)
    this.updateCoefficients()
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.logCutoff.setTarget(Math.log2(cutoffForAmount(this.lowpass, a)))
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  snap(): void {
    this.logCutoff.snap(this.logCutoff.target)
    this.mix.snap(this.mix.target)
    this.updateCoefficients()
  }

  active(): bool {
    const g = this.gate.check(this.mix)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    const z = f64x2.splat(0)
    this.x1 = z
    this.x2 = z
    this.y1 = z
    this.y2 = z
  }

  updateCoefficients(): void {
    const sr = this.sampleRate
    const f = Math.min(Math.max(Math.pow(2, this.logCutoff.value), 1), sr * 0.49)
    const w0 = (2 * Math.PI * f) / sr
    const cosw = Math.cos(w0)
    const alpha = Math.sin(w0) / (2 * BUTTERWORTH_Q)
    const a0 = 1 + alpha
    if (this.lowpass) {
      this.b0 = (1 - cosw) / 2 / a0
      this.b1 = (1 - cosw) / a0
      this.b2 = (1 - cosw) / 2 / a0
    } else {
      this.b0 = (1 + cosw) / 2 / a0
      this.b1 = -(1 + cosw) / a0
      this.b2 = (1 + cosw) / 2 / a0
    }
    this.a1 = (-2 * cosw) / a0
    this.a2 = (1 - alpha) / a0
  }

  /** In place on `frames` interleaved stereo float32 frames at `io`. */
  process(io: usize, frames: i32): void {
    let i = 0
    while (i < frames) {
      const end = min(frames, i + SUB_BLOCK)
      if (this.logCutoff.moving()) {
        this.logCutoff.advance(end - i)
        this.updateCoefficients()
      }
      this.run(io, i, end)
      this.x1 = flush2(this.x1)
      this.x2 = flush2(this.x2)
      this.y1 = flush2(this.y1)
      this.y2 = flush2(this.y2)
      i = end
    }
  }

  run(io: usize, start: i32, end: i32): void {
    const b0 = splat(this.b0)
    const b1 = splat(this.b1)
    const b2 = splat(this.b2)
    const a1 = splat(this.a1)
    const a2 = splat(this.a2)
    let x1 = this.x1
    let x2 = this.x2
    let y1 = this.y1
    let y2 = this.y2
    const mix = this.mix
    if (!mix.moving() && mix.value == 1) {
      for (let i = start; i < end; i++) {
        const p = io + (<usize>i << 3)
        const x = loadFrame(p)
        const y = f64x2.sub(
          f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(b0, x), f64x2.mul(b1, x1)), f64x2.mul(b2, x2)), f64x2.mul(a2, y2)),
          f64x2.mul(a1, y1),
        )
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        storeFrame(p, y)
      }
    } else {
      for (let i = start; i < end; i++) {
        const m = splat(mix.next())
        const p = io + (<usize>i << 3)
        const x = loadFrame(p)
        const y = f64x2.sub(
          f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(b0, x), f64x2.mul(b1, x1)), f64x2.mul(b2, x2)), f64x2.mul(a2, y2)),
          f64x2.mul(a1, y1),
        )
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        storeFrame(p, f64x2.add(x, f64x2.mul(m, f64x2.sub(y, x))))
      }
    }
    this.x1 = x1
    this.x2 = x2
    this.y1 = y1
    this.y2 = y2
  }
}
