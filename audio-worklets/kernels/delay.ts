/**
 * Stereo feedback delay (echo): out = dry + wet · echo, where each echo is fed back with gain
 * `feedback`. Time, feedback and wet glide; the delay line is read with linear interpolation so a
 * time change glides in pitch instead of clicking. Feedback is clamped below 1, so any setting is stable.
 */
import { flush } from './denormal.ts'
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

export const MAX_DELAY_SECONDS = 2
export const MAX_FEEDBACK = 0.95

/** What the strip's single 0–100 "delay" control means. */
export const DELAY_STRIP_TIME_SECONDS = 0.3
export function delaySettingsForAmount(amount: number): { wet: number; feedback: number } {
  const t = Math.min(100, Math.max(0, amount)) / 100
  return { wet: t === 0 ? 0 : 0.5 * t, feedback: t === 0 ? 0 : 0.15 + 0.5 * t }
}

export class DelayKernel {
  private readonly sampleRate: number
  private readonly bufL: Float32Array
  private readonly bufR: Float32Array
  private readonly size: number
  private writePos = 0
  private readonly delaySamples: Smoother
  private readonly feedback: Smoother
  private readonly wet: Smoother
  /**
   * Gain on what enters the delay memory. After a reset (bypass) the memory is empty; switching
   * on would make the first delayed copy of ongoing audio start with a step. Fading the feed in
   * from 0 makes the wet signal build up smoothly instead.
   */
  private readonly feed: Smoother

  constructor(sampleRate: number, timeSeconds = DELAY_STRIP_TIME_SECONDS, feedback = 0, wet = 0) {
    this.sampleRate = sampleRate
    this.size = Math.ceil(MAX_DELAY_SECONDS * sampleRate) + 2
    this.bufL = new Float32Array(this.size)
    this.bufR = new Float32Array(this.size)
    this.delaySamples = new Smoother(this.clampTime(timeSeconds) * sampleRate, sampleRate, 0.05, 1e-3)
    this.feedback = new Smoother(clampFeedback(feedback), sampleRate)
    this.wet = new Smoother(Math.max(0, wet), sampleRate)
    this.feed = new Smoother(1, sampleRate)
  }

  private clampTime(seconds: number): number {
    return Math.min(MAX_DELAY_SECONDS, Math.max(1 / this.sampleRate, seconds))
  }

  setTime(seconds: number): void {
    if (Number.isFinite(seconds)) this.delaySamples.setTarget(this.clampTime(seconds) * this.sampleRate)
  }

  setFeedback(gain: number): void {
    if (Number.isFinite(gain)) this.feedback.setTarget(clampFeedback(gain))
  }

  setWet(gain: number): void {
    if (Number.isFinite(gain)) this.wet.setTarget(Math.min(1, Math.max(0, gain)))
  }

  /** The strip's 0–100 control: fixed time, amount drives wet level and feedback. */
  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    const s = delaySettingsForAmount(amount)
    this.setWet(s.wet)
    this.setFeedback(s.feedback)
  }

  snap(): void {
    this.delaySamples.snap(this.delaySamples.target)
    this.feedback.snap(this.feedback.target)
    this.wet.snap(this.wet.target)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.wet, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.bufL.fill(0)
    this.bufR.fill(0)
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const bufL = this.bufL
    const bufR = this.bufR
    const size = this.size
    const dSm = this.delaySamples
    const fbSm = this.feedback
    const wetSm = this.wet
    let w = this.writePos
    const feedSm = this.feed
    if (!dSm.moving && !fbSm.moving && !wetSm.moving && !feedSm.moving) {
      const feed = feedSm.value
      const d = dSm.value
      const fb = fbSm.value
      const wet = wetSm.value
      // Constant delay: the read point moves in step with the write point, so its integer part
      // and fraction are found once per block instead of per sample.
      let r = w - d
      if (r < 0) r += size
      let r0 = Math.floor(r)
      const frac = r - r0
      let r1 = r0 + 1 === size ? 0 : r0 + 1
      for (let i = 0; i < frames; i++) {
        const al = bufL[r0]!
        const ar = bufR[r0]!
        const el = al + frac * (bufL[r1]! - al)
        const er = ar + frac * (bufR[r1]! - ar)
        const xl = inL[i]!
        const xr = inR[i]!
        bufL[w] = flush(xl * feed + fb * el)
        bufR[w] = flush(xr * feed + fb * er)
        outL[i] = xl + wet * el
        outR[i] = xr + wet * er
        if (++w === size) w = 0
        r0 = r1
        if (++r1 === size) r1 = 0
      }
      this.writePos = w
      return
    }
    // Some control is gliding: every value advances per sample.
    for (let i = 0; i < frames; i++) {
      const d = dSm.next()
      const fb = fbSm.next()
      const wet = wetSm.next()
      const feed = feedSm.next()
      let r = w - d
      if (r < 0) r += size
      const r0 = Math.floor(r)
      const frac = r - r0
      const r1 = r0 + 1 === size ? 0 : r0 + 1
      const el = bufL[r0]! + frac * (bufL[r1]! - bufL[r0]!)
      const er = bufR[r0]! + frac * (bufR[r1]! - bufR[r0]!)
      const xl = inL[i]!
      const xr = inR[i]!
      bufL[w] = flush(xl * feed + fb * el)
      bufR[w] = flush(xr * feed + fb * er)
      outL[i] = xl + wet * el
      outR[i] = xr + wet * er
      if (++w === size) w = 0
    }
    this.writePos = w
  }
}

function clampFeedback(g: number): number {
  return Math.min(MAX_FEEDBACK, Math.max(0, g))
}
