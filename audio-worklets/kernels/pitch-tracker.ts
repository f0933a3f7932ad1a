/**
 * Streaming monophonic pitch tracker, cheap enough for the audio thread.
 *
 * YIN (cumulative-mean-normalised difference, absolute threshold) runs every hop (~6 ms) on the
 * signal low-passed and decimated to ~5.5 kHz: a voice's fundamental (70–1000 Hz) fits in that
 * band, and the difference function costs window × lags, both eight times shorter there (~64x
 * less work than at 44.1 kHz). The decimated lag is only coarse (a tenth of a sample there is
 * ~14 cents at 440 Hz), so the period is then refined at the full rate, walking downhill over a
 * few lags from it (a raw difference function is a parabola around its minimum, so parabolic
 * interpolation there is near exact): estimates land within a fraction of a cent on steady tones,
 * which is what keeps Auto Tune's correction inside ±5 cents.
 *
 * `hz` is 0 when the frame is silent or not periodic enough (noise, drums, chords).
 */
export interface PitchTrackerOptions {
  minHz?: number
  maxHz?: number
  /** Analysis window in ms (the frame read is window + the longest lag). */
  windowMs?: number
  /** YIN's absolute threshold on the normalised difference (lower = stricter voicing). */
  threshold?: number
}

/** Decimated rate the YIN stage aims at (at least this): 2.7 kHz of band covers a voice's fundamental. */
const ANALYSIS_RATE = 5512.5
/** Below this mean square (about −66 dBFS RMS) a frame is silence. */
const SILENCE = 2.5e-7

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(2, n)))

export class PitchTracker {
  /** Latest estimate in Hz (0 = unvoiced). */
  hz = 0
  /** Latest period in samples at the input rate (0 = unvoiced). */
  period = 0
  /** 1 − YIN's normalised difference at the chosen lag: ~1 for a clean tone. */
  clarity = 0
  /** Input samples between estimates. */
  readonly hop: number
  readonly decimation: number

  private readonly sampleRate: number
  private readonly threshold: number
  // Full-rate history, for the refinement.
  private readonly full: Float32Array
  private readonly fullMask: number
  private fullWrite = 0
  // Decimated history and YIN's scratch.
  private readonly dec: Float32Array
  private readonly decMask: number
  private decWrite = 0
  private readonly frame: Float32Array
  private readonly diff: Float64Array
  private readonly window: number
  private readonly minTau: number
  private readonly maxTau: number
  private readonly fullWindow: number
  private phase = 0
  private sinceHop = 0
  // Two cascaded Butterworth lowpass sections (anti-alias before decimation), direct form II transposed.
  private readonly c: Float64Array
  private s1 = 0
  private s2 = 0
  private s3 = 0
  private s4 = 0

  constructor(sampleRate: number, options: PitchTrackerOptions = {}) {
    const minHz = options.minHz ?? 70
    const maxHz = options.maxHz ?? 1000
    const windowMs = options.windowMs ?? 25
    this.sampleRate = sampleRate
    this.threshold = options.threshold ?? 0.12
    this.decimation = Math.max(1, Math.floor(sampleRate / ANALYSIS_RATE))
    const rate = sampleRate / this.decimation
    this.hop = this.decimation * Math.max(1, Math.round((sampleRate * 0.0058) / this.decimation))
    this.window = Math.round((rate * windowMs) / 1000)
    this.maxTau = Math.floor(rate / minHz)
    this.minTau = Math.max(2, Math.floor(rate / maxHz))
    this.frame = new Float32Array(this.window + this.maxTau + 2)
    this.diff = new Float64Array(this.maxTau + 2)
    this.dec = new Float32Array(nextPow2(this.frame.length + 1))
    this.decMask = this.dec.length - 1
    this.fullWindow = Math.round((sampleRate * windowMs) / 1000)
    const longest = this.decimation * (this.maxTau + 3) + this.decimation + 2
    this.full = new Float32Array(nextPow2(this.fullWindow + longest + 2))
    this.fullMask = this.full.length - 1
    this.c = lowpass(0.22 * rate, sampleRate)
  }

  /** Clears the history (the next estimates read silence until a window has filled). */
  reset(): void {
    this.full.fill(0)
    this.dec.fill(0)
    this.hz = this.period = this.clarity = 0
    this.s1 = this.s2 = this.s3 = this.s4 = 0
    this.phase = this.sinceHop = 0
  }

  /** Feeds one sample; true when a new estimate was made (every `hop` samples). */
  push(x: number): boolean {
    this.full[this.fullWrite] = x
    this.fullWrite = (this.fullWrite + 1) & this.fullMask
    const c = this.c
    const y1 = c[0]! * x + this.s1
    this.s1 = c[1]! * x - c[3]! * y1 + this.s2
    this.s2 = c[2]! * x - c[4]! * y1
    const y2 = c[0]! * y1 + this.s3
    this.s3 = c[1]! * y1 - c[3]! * y2 + this.s4
    this.s4 = c[2]! * y1 - c[4]! * y2
    if (++this.phase === this.decimation) {
      this.phase = 0
      this.dec[this.decWrite] = y2
      this.decWrite = (this.decWrite + 1) & this.decMask
    }
    if (++this.sinceHop < this.hop) return false
    this.sinceHop = 0
    this.analyse()
    return true
  }

  private analyse(): void {
    const frame = this.frame
    const len = frame.length
    const dec = this.dec
    const mask = this.decMask
    const start = this.decWrite - len
    for (let i = 0; i < len; i++) frame[i] = dec[(start + i) & mask]!
    const tau = this.coarseLag()
    if (tau <= 0) {
      this.hz = this.period = 0
      return
    }
    const period = this.refine(tau * this.decimation)
    this.period = period
    this.hz = this.sampleRate / period
  }

  /** YIN on the decimated frame: a fractional lag, or 0 when unvoiced. */
  private coarseLag(): number {
    const frame = this.frame
    const w = this.window
    const d = this.diff
    const maxTau = this.maxTau
    let energy = 0
    for (let j = 0; j < w; j++) energy += frame[j]! * frame[j]!
    if (energy < SILENCE * w) {
      this.clarity = 0
      return 0
    }
    d[0] = 1
    let running = 0
    for (let tau = 1; tau <= maxTau + 1; tau++) {
      let s = 0
      for (let j = 0; j < w; j++) {
        const diff = frame[j]! - frame[j + tau]!
        s += diff * diff
      }
      running += s
      d[tau] = running > 0 ? (s * tau) / running : 1
    }
    let tau = -1
    const threshold = this.threshold
    for (let t = this.minTau; t <= maxTau; t++) {
      const b = d[t]!
      if (b < threshold) {
        while (t + 1 <= maxTau && d[t + 1]! < d[t]!) t++
        tau = t
        break
      }
      // A high note's period spans only a few decimated samples, so its dip can fall between two
      // lags, both above the threshold: judge a local minimum by its interpolated floor, or the
      // next dip (an octave down) would win.
      const a = d[t - 1]!,
        c = d[t + 1]!
      const denom = a - 2 * b + c
      if (b <= a && b <= c && denom > 0 && b - ((a - c) * (a - c)) / (8 * denom) < threshold) {
        tau = t
        break
      }
    }
    if (tau < 0) {
      this.clarity = 0
      return 0
    }
    this.clarity = 1 - d[tau]!
    const a = d[tau - 1]!,
      b = d[tau]!,
      c = d[tau + 1]!
    const denom = a - 2 * b + c
    return tau + (denom > 0 ? (0.5 * (a - c)) / denom : 0)
  }

  /**
   * The minimum of the raw difference function at the full rate near `guess`: downhill from the
   * nearest lag (at most ±decimation away), then a parabola through the minimum and its neighbours.
   */
  private refine(guess: number): number {
    const lo = Math.max(3, Math.floor(guess) - this.decimation)
    const hi = Math.ceil(guess) + this.decimation
    let k = Math.min(hi, Math.max(lo, Math.round(guess)))
    let here = this.difference(k, hi)
    let left = this.difference(k - 1, hi)
    let right = this.difference(k + 1, hi)
    while (left < here && k > lo) {
      k--
      right = here
      here = left
      left = this.difference(k - 1, hi)
    }
    while (right < here && k < hi) {
      k++
      left = here
      here = right
      right = this.difference(k + 1, hi)
    }
    const denom = left - 2 * here + right
    const shift = denom > 0 ? (0.5 * (left - right)) / denom : 0
    return k + Math.max(-0.5, Math.min(0.5, shift))
  }

  /** Σ (x[j] − x[j + tau])² over the full-rate window that ends `last + 1` samples before now. */
  private difference(tau: number, last: number): number {
    const full = this.full
    const mask = this.fullMask
    const w = this.fullWindow
    // The same window for every lag of one refinement, so their values compare.
    const start = this.fullWrite - w - last - 1
    let s = 0
    for (let j = 0; j < w; j++) {
      const diff = full[(start + j) & mask]! - full[(start + j + tau) & mask]!
      s += diff * diff
    }
    return s
  }
}

/** Normalised RBJ Butterworth lowpass [b0, b1, b2, a1, a2] (b0 = b2, b1 = 2 b0). */
function lowpass(cutoff: number, sampleRate: number): Float64Array {
  const w0 = (2 * Math.PI * cutoff) / sampleRate
  const alpha = Math.sin(w0) / (2 * Math.SQRT1_2)
  const cs = Math.cos(w0)
  const a0 = 1 + alpha
  const b0 = (1 - cs) / 2 / a0
  return Float64Array.of(b0, 2 * b0, b0, (-2 * cs) / a0, (1 - alpha) / a0)
}
