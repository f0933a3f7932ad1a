// Stereo chorus: kernels/chorus.ts (one delay line per channel, read at a base delay modulated by a
// rotating-phasor sine LFO, the right channel 90° behind; the feed fades in after a reset). Each
// channel reads its own fractional position, so this one stays scalar.
import { Smoother, IdleGate } from './smoothing'
import { allocate } from './stereo'

export const CHORUS_BASE_DELAY_SECONDS: f64 = 0.012
export const CHORUS_MAX_DEPTH_SECONDS: f64 = 0.004
export const CHORUS_RATE_HZ: f64 = 0.8

export class Chorus {
  buf: usize
  size: i32
  writePos: i32 = 0
  baseDelay: f64
  depth: Smoother
  mix: Smoother
  feed: Smoother
  gate: IdleGate = new IdleGate()
  c: f64 = 1
  s: f64 = 0
  rc: f64
  rs: f64
  sampleRate: f64

  constructor(sampleRate: f64) {
    this.baseDelay = CHORUS_BASE_DELAY_SECONDS * sampleRate
    const size = <i32>Math.ceil((CHORUS_BASE_DELAY_SECONDS + CHORUS_MAX_DEPTH_SECONDS) * sampleRate) + 4
    this.size = size
    this.buf = allocate(<usize>(2 * size) << 2)
    this.depth = new Smoother(Chorus.depthFor(0) * sampleRate, sampleRate)
    this.mix = new Smoother(0, sampleRate)
    this.feed = new Smoother(1, sampleRate)
    const w = (2 * Math.PI * CHORUS_RATE_HZ) / sampleRate
    this.rc = Math.cos(w)
    this.rs = Math.sin(w)
    this.sampleRate = sampleRate
  }

  static depthFor(amount: f64): f64 {
    const t = Math.min(100, Math.max(0, amount)) / 100
    return CHORUS_MAX_DEPTH_SECONDS * (0.25 + 0.75 * t)
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    const t = Math.min(100, Math.max(0, amount)) / 100
    this.mix.setTarget(0.5 * t)
    if (amount > 0) this.depth.setTarget(Chorus.depthFor(amount) * this.sampleRate)
  }

  snap(): void {
    this.depth.snap(this.depth.target)
    this.mix.snap(this.mix.target)
  }

  active(): bool {
    const g = this.gate.check(this.mix)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    memory.fill(this.buf, 0, <usize>(2 * this.size) << 2)
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  process(io: usize, frames: i32): void {
    const buf = this.buf
    const size = this.size
    const right = buf + (<usize>size << 2)
    const base = this.baseDelay
    const depthSm = this.depth
    const mixSm = this.mix
    const feedSm = this.feed
    const rc = this.rc
    const rs = this.rs
    let c = this.c
    let s = this.s
    let w = this.writePos
    const steady = !depthSm.moving() && !mixSm.moving() && !feedSm.moving()
    let depth = depthSm.value
    let mix = mixSm.value
    let feed = feedSm.value
    for (let i = 0; i < frames; i++) {
      if (!steady) {
        depth = depthSm.next()
        mix = mixSm.next()
        feed = feedSm.next()
      }
      const nc = c * rc - s * rs
      s = s * rc + c * rs
      c = nc
      const p = io + (<usize>i << 3)
      const xl = <f64>load<f32>(p)
      const xr = <f64>load<f32>(p, 4)
      store<f32>(buf + (<usize>w << 2), <f32>(xl * feed))
      store<f32>(right + (<usize>w << 2), <f32>(xr * feed))
      let rl = <f64>w - (base + depth * s)
      if (rl < 0) rl += <f64>size
      let rr = <f64>w - (base + depth * c)
      if (rr < 0) rr += <f64>size
      const il = <i32>rl
      const fl = rl - <f64>il
      const il1 = il + 1 == size ? 0 : il + 1
      const ir = <i32>rr
      const fr = rr - <f64>ir
      const ir1 = ir + 1 == size ? 0 : ir + 1
      const al = <f64>load<f32>(buf + (<usize>il << 2))
      const ar = <f64>load<f32>(right + (<usize>ir << 2))
      const wl = al + fl * (<f64>load<f32>(buf + (<usize>il1 << 2)) - al)
      const wr = ar + fr * (<f64>load<f32>(right + (<usize>ir1 << 2)) - ar)
      store<f32>(p, <f32>(xl + mix * (wl - xl)))
      store<f32>(p, <f32>(xr + mix * (wr - xr)), 4)
      if (++w == size) w = 0
    }
    const norm = 1 / Math.sqrt(c * c + s * s)
    this.c = c * norm
    this.s = s * norm
    this.writePos = w
  }
}
