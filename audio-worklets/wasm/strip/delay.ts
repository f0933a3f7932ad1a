// Stereo feedback delay (echo): kernels/delay.ts with both channels' lines interleaved, so a frame
// of the line is one f64x2 (linear interpolation, feedback below 1, the feed fading in after a reset).
import { Smoother, IdleGate } from './smoothing'
import { allocate, flush2, loadFrame, splat, storeFrame } from './stereo'

export const MAX_DELAY_SECONDS: f64 = 2
export const MAX_FEEDBACK: f64 = 0.95
export const DELAY_STRIP_TIME_SECONDS: f64 = 0.3

function clampFeedback(g: f64): f64 {
  return Math.min(MAX_FEEDBACK, Math.max(0, g))
}

export class Delay {
  sampleRate: f64
  line: usize
  size: i32
  writePos: i32 = 0
  delaySamples: Smoother
  feedback: Smoother
  wet: Smoother
  feed: Smoother
  gate: IdleGate = new IdleGate()

  constructor(sampleRate: f64) {
    this.sampleRate = sampleRate
    const size = <i32>Math.ceil(MAX_DELAY_SECONDS * sampleRate) + 2
    this.size = size
    this.line = allocate(<usize>size << 3)
    const time = Math.min(MAX_DELAY_SECONDS, Math.max(1 / sampleRate, DELAY_STRIP_TIME_SECONDS))
    this.delaySamples = new Smoother(time * sampleRate, sampleRate, 0.05, 1e-3)
    this.feedback = new Smoother(clampFeedback(0), sampleRate)
    this.wet = new Smoother(0, sampleRate)
    this.feed = new Smoother(1, sampleRate)
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    const t = Math.min(100, Math.max(0, amount)) / 100
    const wet = t == 0 ? 0 : 0.5 * t
    const feedback = t == 0 ? 0 : 0.15 + 0.5 * t
    this.wet.setTarget(Math.min(1, Math.max(0, wet)))
    this.feedback.setTarget(clampFeedback(feedback))
  }

  snap(): void {
    this.delaySamples.snap(this.delaySamples.target)
    this.feedback.snap(this.feedback.target)
    this.wet.snap(this.wet.target)
  }

  active(): bool {
    const g = this.gate.check(this.wet)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    memory.fill(this.line, 0, <usize>this.size << 3)
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  process(io: usize, frames: i32): void {
    const line = this.line
    const size = this.size
    const dSm = this.delaySamples
    const fbSm = this.feedback
    const wetSm = this.wet
    const feedSm = this.feed
    let w = this.writePos
    if (!dSm.moving() && !fbSm.moving() && !wetSm.moving() && !feedSm.moving()) {
      const feed = splat(feedSm.value)
      const fb = splat(fbSm.value)
      const wet = splat(wetSm.value)
      let r = <f64>w - dSm.value
      if (r < 0) r += <f64>size
      let r0 = <i32>Math.floor(r)
      const frac = splat(r - <f64>r0)
      let r1 = r0 + 1 == size ? 0 : r0 + 1
      for (let i = 0; i < frames; i++) {
        const a = loadFrame(line + (<usize>r0 << 3))
        const echo = f64x2.add(a, f64x2.mul(frac, f64x2.sub(loadFrame(line + (<usize>r1 << 3)), a)))
        const p = io + (<usize>i << 3)
        const x = loadFrame(p)
        storeFrame(line + (<usize>w << 3), flush2(f64x2.add(f64x2.mul(x, feed), f64x2.mul(fb, echo))))
        storeFrame(p, f64x2.add(x, f64x2.mul(wet, echo)))
        if (++w == size) w = 0
        r0 = r1
        if (++r1 == size) r1 = 0
      }
      this.writePos = w
      return
    }
    for (let i = 0; i < frames; i++) {
      const d = dSm.next()
      const fb = splat(fbSm.next())
      const wet = splat(wetSm.next())
      const feed = splat(feedSm.next())
      let r = <f64>w - d
      if (r < 0) r += <f64>size
      const r0 = <i32>Math.floor(r)
      const frac = splat(r - <f64>r0)
      const r1 = r0 + 1 == size ? 0 : r0 + 1
      const a = loadFrame(line + (<usize>r0 << 3))
      const echo = f64x2.add(a, f64x2.mul(frac, f64x2.sub(loadFrame(line + (<usize>r1 << 3)), a)))
      const p = io + (<usize>i << 3)
      const x = loadFrame(p)
      storeFrame(line + (<usize>w << 3), flush2(f64x2.add(f64x2.mul(x, feed), f64x2.mul(fb, echo))))
      storeFrame(p, f64x2.add(x, f64x2.mul(wet, echo)))
      if (++w == size) w = 0
    }
    this.writePos = w
  }
}
