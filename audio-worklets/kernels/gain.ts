/**
 * Channel fader: volume 0–100 on a square-law taper (gain = (v/100)², so 50 ≈ −12 dB, 70 ≈ −6 dB,
 * 100 = unity), times the enabled/mute switch. Both glide, so moving the fader or muting is click-free.
 */
import { Smoother } from './smoothing.ts'

export function gainForVolume(volume: number): number {
  const v = Math.min(100, Math.max(0, volume)) / 100
  return v * v
}

export class GainKernel {
  private readonly gain: Smoother
  private volume: number
  private enabled: boolean

  constructor(sampleRate: number, volume = 100, enabled = true) {
    this.volume = volume
    this.enabled = enabled
    this.gain = new Smoother(this.targetGain(), sampleRate, undefined, 1e-7)
  }

  private targetGain(): number {
    return this.enabled ? gainForVolume(this.volume) : 0
  }

  setVolume(volume: number): void {
    if (!Number.isFinite(volume)) return
    this.volume = volume
    this.gain.setTarget(this.targetGain())
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled
    this.gain.setTarget(this.targetGain())
  }

  snap(): void {
    this.gain.snap(this.gain.target)
  }

  /** The gain while it is settled, NaN while it glides (lets the chain fold it into the panner's pass). */
  get steadyGain(): number {
    return this.gain.moving ? Number.NaN : this.gain.value
  }

  /** Settled at unity: the caller may skip it. */
  get active(): boolean {
    return this.gain.target !== 1 || this.gain.moving
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const g = this.gain
    if (g.moving) {
      for (let i = 0; i < frames; i++) {
        const k = g.next()
        outL[i] = inL[i]! * k
        outR[i] = inR[i]! * k
      }
      return
    }
    const k = g.value
    for (let i = 0; i < frames; i++) {
      outL[i] = inL[i]! * k
      outR[i] = inR[i]! * k
    }
  }
}
