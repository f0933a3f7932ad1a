/**
 * Equal-power pan, -50 (left) … 0 (centre) … 50 (right). Gains √2·cos θ and √2·sin θ with
 * θ = (pan + 50)/100 · π/2: their squares always sum to 2, so a centred source is untouched (unity
 * both sides) and a mono source keeps constant power L² + R² at every position.
 */
import { Smoother } from './smoothing.ts'

export function panGains(pan: number): { left: number; right: number } {
  const p = Math.min(50, Math.max(-50, pan))
  const theta = ((p + 50) / 100) * (Math.PI / 2)
  return { left: Math.SQRT2 * Math.cos(theta), right: Math.SQRT2 * Math.sin(theta) }
}

export class PanKernel {
  private readonly position: Smoother
  private gainL = 1
  private gainR = 1

  constructor(sampleRate: number, pan = 0) {
    this.position = new Smoother(clampPan(pan), sampleRate, undefined, 1e-4)
    this.updateGains(this.position.value)
  }

  setPan(pan: number): void {
    if (Number.isFinite(pan)) this.position.setTarget(clampPan(pan))
  }

  snap(): void {
    this.position.snap(this.position.target)
    this.updateGains(this.position.value)
  }

  /** Centred and settled: the caller may skip it (gains are exactly 1). */
  get active(): boolean {
    return this.position.target !== 0 || this.position.moving
  }

  private updateGains(p: number): void {
    const theta = ((p + 50) / 100) * (Math.PI / 2)
    // Exactly 1 at centre, not 0.99999…, so "neutral" is bit-transparent.
    this.gainL = p === 0 ? 1 : Math.SQRT2 * Math.cos(theta)
    this.gainR = p === 0 ? 1 : Math.SQRT2 * Math.sin(theta)
  }

  /**
   * In place, panning and scaling by `scale` in one pass; false (nothing done) while the pan glides
   * or if scale is not finite, and the caller then runs the two stages separately.
   */
  processScaled(l: Float32Array, r: Float32Array, frames: number, scale: number): boolean {
    if (!Number.isFinite(scale) || this.position.moving) return false
    this.updateGains(this.position.value)
    const gl = this.gainL * scale
    const gr = this.gainR * scale
    for (let i = 0; i < frames; i++) {
      l[i] = l[i]! * gl
      r[i] = r[i]! * gr
    }
    return true
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    const pos = this.position
    if (pos.moving) {
      for (let i = 0; i < frames; i++) {
        // Gains follow the smoothed position; trig per sample only while gliding.
        this.updateGains(pos.next())
        outL[i] = inL[i]! * this.gainL
        outR[i] = inR[i]! * this.gainR
      }
      return
    }
    this.updateGains(pos.value)
    const gl = this.gainL
    const gr = this.gainR
    for (let i = 0; i < frames; i++) {
      outL[i] = inL[i]! * gl
      outR[i] = inR[i]! * gr
    }
  }
}

function clampPan(p: number): number {
  return Math.min(50, Math.max(-50, p))
}
