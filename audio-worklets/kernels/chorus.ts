/**
 * Stereo chorus: each channel reads its own delay line at a base delay modulated by a sine LFO,
 * the right LFO a quarter cycle behind the left for width. The LFO is a rotating phasor
 * (no Math.sin per sample), renormalised every block so it never drifts. Output
 * = dry + mix · (wet − dry); amount 0 is bypass. No feedback, so it is unconditionally stable.
 */
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

export const CHORUS_BASE_DELAY_SECONDS = 0.012
export const CHORUS_MAX_DEPTH_SECONDS = 0.004
export const CHORUS_RATE_HZ = 0.8

export function chorusSettingsForAmount(amount: number): { mix: number; depthSeconds: number } {
  const t = Math.min(100, Math.max(0, amount)) / 100
  return { mix: 0.5 * t, depthSeconds: CHORUS_MAX_DEPTH_SECONDS * (0.25 + 0.75 * t) }
}

export class ChorusKernel {
  private readonly buf: Float32Array
  private readonly size: number
  private writePos = 0
  private readonly baseDelay: number
  private readonly depth: Smoother
  private readonly mix: Smoother
  /**
   * Gain on what enters the delay memory. After a reset (bypass) the memory is empty; switching
   * on would make the first delayed copy of ongoing audio start with a step. Fading the feed in
   * from 0 makes the wet signal build up smoothly instead.
   */
  private readonly feed: Smoother
  // LFO phasor (cos, sin) and its per-sample rotation.
  private c = 1
  private s = 0
  private readonly rc: number
  private readonly rs: number

  constructor(sampleRate: number, amount = 0) {
    this.baseDelay = CHORUS_BASE_DELAY_SECONDS * sampleRate
    this.size = Math.ceil((CHORUS_BASE_DELAY_SECONDS + CHORUS_MAX_DEPTH_SECONDS) * sampleRate) + 4
    // Both channels in one array (left, then right), so the hot loop holds one.
    this.buf = new Float32Array(2 * this.size)
    const s = chorusSettingsForAmount(amount > 0 ? amount : 0)
    this.depth = new Smoother(s.depthSeconds * sampleRate, sampleRate)
    this.mix = new Smoother(s.mix, sampleRate)
    this.feed = new Smoother(1, sampleRate)
    const w = (2 * Math.PI * CHORUS_RATE_HZ) / sampleRate
    this.rc = Math.cos(w)
    this.rs = Math.sin(w)
    this.sampleRate = sampleRate
  }

  private readonly sampleRate: number

  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    const s = chorusSettingsForAmount(amount)
    this.mix.setTarget(s.mix)
    if (amount > 0) this.depth.setTarget(s.depthSeconds * this.sampleRate)
  }

  snap(): void {
    this.depth.snap(this.depth.target)
    this.mix.snap(this.mix.target)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.mix, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.buf.fill(0)
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const buf = this.buf
    const size = this.size
    const base = this.baseDelay
    const depthSm = this.depth
    const mixSm = this.mix
    const rc = this.rc
    const rs = this.rs
    let c = this.c
    let s = this.s
    let w = this.writePos
    const feedSm = this.feed
    const steady = !depthSm.moving && !mixSm.moving && !feedSm.moving
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
      const xl = inL[i]!
      const xr = inR[i]!
      buf[w] = xl * feed
      buf[w + size] = xr * feed
      // Left follows sin, right follows cos (90° apart). Delays stay within [base-depth, base+depth].
      let rl = w - (base + depth * s)
      if (rl < 0) rl += size
      let rr = w - (base + depth * c)
      if (rr < 0) rr += size
      // rl, rr are in [0, size) here, so truncation is floor (and cheaper than Math.floor).
      const il = rl | 0
      const fl = rl - il
      const il1 = il + 1 === size ? 0 : il + 1
      const ir = rr | 0
      const fr = rr - ir
      const ir1 = ir + 1 === size ? 0 : ir + 1
      const al = buf[il]!
      const ar = buf[ir + size]!
      const wl = al + fl * (buf[il1]! - al)
      const wr = ar + fr * (buf[ir1 + size]! - ar)
      outL[i] = xl + mix * (wl - xl)
      outR[i] = xr + mix * (wr - xr)
      if (++w === size) w = 0
    }
    // Renormalise the phasor: rounding would otherwise let its radius drift over hours.
    const norm = 1 / Math.sqrt(c * c + s * s)
    this.c = c * norm
    this.s = s * norm
    this.writePos = w
  }
}
