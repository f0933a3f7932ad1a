// The strip's last stages on planar float32 channels: the fader (square-law volume times the
// mute switch, gliding), the equal-power panner, and the peak/RMS meter: kernels/gain.ts,
// kernels/pan.ts and kernels/meter.ts. Two frames per f64x2: a double times a float32 sample,
// rounded once, as the JS kernels compute it.
import { Smoother } from './smoothing'

@inline function scale2(p: usize, k: v128): void {
  v128.store64_lane(p, f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(v128.load64_zero(p)), k)), 0)
}

/** In place: ch[i] *= k for i < frames (frames even; Web Audio's quantum is 128). */
function scaleChannel(ch: usize, frames: i32, k: f64): void {
  const kk = f64x2.splat(k)
  let i = 0
  for (; i + 1 < frames; i += 2) scale2(ch + (<usize>i << 2), kk)
  if (i < frames) store<f32>(ch + (<usize>i << 2), <f32>(<f64>load<f32>(ch + (<usize>i << 2)) * k))
}

export function gainForVolume(volume: f64): f64 {
  const v = Math.min(100, Math.max(0, volume)) / 100
  return v * v
}

export class Fader {
  gain: Smoother
  volume: f64 = 100
  enabled: bool = true

  constructor(sampleRate: f64) {
    this.gain = new Smoother(1, sampleRate, 0.01, 1e-7)
  }

  targetGain(): f64 {
    return this.enabled ? gainForVolume(this.volume) : 0
  }

  setVolume(volume: f64): void {
    if (!isFinite<f64>(volume)) return
    this.volume = volume
    this.gain.setTarget(this.targetGain())
  }

  setEnabled(enabled: bool): void {
    this.enabled = enabled
    this.gain.setTarget(this.targetGain())
  }

  snap(): void {
    this.gain.snap(this.gain.target)
  }

  steadyGain(): f64 {
    return this.gain.moving() ? NaN : this.gain.value
  }

  active(): bool {
    return this.gain.target != 1 || this.gain.moving()
  }

  process(l: usize, r: usize, frames: i32): void {
    const g = this.gain
    if (g.moving()) {
      for (let i = 0; i < frames; i++) {
        const k = g.next()
        const o = <usize>i << 2
        store<f32>(l + o, <f32>(<f64>load<f32>(l + o) * k))
        store<f32>(r + o, <f32>(<f64>load<f32>(r + o) * k))
      }
      return
    }
    scaleChannel(l, frames, g.value)
    scaleChannel(r, frames, g.value)
  }
}

function clampPan(p: f64): f64 {
  return Math.min(50, Math.max(-50, p))
}

export class Panner {
  position: Smoother
  gainL: f64 = 1
  gainR: f64 = 1

  constructor(sampleRate: f64) {
    this.position = new Smoother(0, sampleRate, 0.01, 1e-4)
  }

  setPan(pan: f64): void {
    if (isFinite<f64>(pan)) this.position.setTarget(clampPan(pan))
  }

  snap(): void {
    this.position.snap(this.position.target)
    this.updateGains(this.position.value)
  }

  active(): bool {
    return this.position.target != 0 || this.position.moving()
  }

  updateGains(p: f64): void {
    const theta = ((p + 50) / 100) * (Math.PI / 2)
    this.gainL = p == 0 ? 1 : Math.SQRT2 * Math.cos(theta)
    this.gainR = p == 0 ? 1 : Math.SQRT2 * Math.sin(theta)
  }

  /** Pans and scales in one pass; false (nothing done) while the pan glides or scale is NaN. */
  processScaled(l: usize, r: usize, frames: i32, scale: f64): bool {
    if (!isFinite<f64>(scale) || this.position.moving()) return false
    this.updateGains(this.position.value)
    scaleChannel(l, frames, this.gainL * scale)
    scaleChannel(r, frames, this.gainR * scale)
    return true
  }

  process(l: usize, r: usize, frames: i32): void {
    const pos = this.position
    if (pos.moving()) {
      for (let i = 0; i < frames; i++) {
        this.updateGains(pos.next())
        const o = <usize>i << 2
        store<f32>(l + o, <f32>(<f64>load<f32>(l + o) * this.gainL))
        store<f32>(r + o, <f32>(<f64>load<f32>(r + o) * this.gainR))
      }
      return
    }
    this.updateGains(pos.value)
    scaleChannel(l, frames, this.gainL)
    scaleChannel(r, frames, this.gainR)
  }
}

/** Peak and RMS per channel over a fixed window; `levels` holds the last completed window. */
export class Meter {
  windowFrames: i32
  count: i32 = 0
  peakL: f64 = 0
  peakR: f64 = 0
  sumL: f64 = 0
  sumR: f64 = 0
  /** float64 peakL, peakR, rmsL, rmsR. */
  levels: usize

  constructor(windowFrames: f64, levels: usize) {
    this.windowFrames = max(1, <i32>Math.round(windowFrames))
    this.levels = levels
  }

  add(l: usize, r: usize, frames: i32): bool {
    let pl = this.peakL
    let pr = this.peakR
    let sl = this.sumL
    let sr = this.sumR
    let count = this.count
    let done = false
    let i = 0
    while (i < frames) {
      const take = min(frames - i, this.windowFrames - count)
      const end = i + take
      for (; i < end; i++) {
        const a = <f64>load<f32>(l + (<usize>i << 2))
        const b = <f64>load<f32>(r + (<usize>i << 2))
        const aa = Math.abs(a)
        const bb = Math.abs(b)
        if (aa > pl) pl = aa
        if (bb > pr) pr = bb
        sl += a * a
        sr += b * b
      }
      count += take
      if (count == this.windowFrames) {
        const lv = this.levels
        store<f64>(lv, pl)
        store<f64>(lv, pr, 8)
        store<f64>(lv, Math.sqrt(sl / <f64>this.windowFrames), 16)
        store<f64>(lv, Math.sqrt(sr / <f64>this.windowFrames), 24)
        pl = 0
        pr = 0
        sl = 0
        sr = 0
        count = 0
        done = true
      }
    }
    this.peakL = pl
    this.peakR = pr
    this.sumL = sl
    this.sumR = sr
    this.count = count
    return done
  }
}
