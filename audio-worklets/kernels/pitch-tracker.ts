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
 *
 * `process` runs a block (what the audio thread calls); `push` is one sample of it. No call in
 * either hands a double to another or returns one (the analysis keeps its intermediate results in
 * a Float64Array): V8 boxes such doubles when it does not inline the call, garbage on the audio
 * thread.
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

// The filter's state and the analysis' results, in `state`.
const S1 = 0
const S2 = 1
const S3 = 2
const S4 = 3
/** coarseLag's result: the fractional decimated lag, 0 when unvoiced. */
const LAG = 4
/** difference's result. */
const DIFF = 5
/** refine's result: the period in samples at the input rate. */
const REFINED = 6

export class PitchTracker {
  /** Latest estimate in Hz (0 = unvoiced). */
  hz = 0
  /** Latest period in samples at the input rate (0 = unvoiced). */
  period = 0
  /** 1 − YIN's normalised difference at the chosen lag: ~1 for a clean tone. */
  clarity = 0
  /** Input samples between estimates. */
  readonly hop: number = 0
  readonly decimation: number = 0

  private readonly sampleRate: number = 0
  private readonly threshold: number = 0
  // Full-rate history, for the refinement.
  private readonly full: Float32Array
  private readonly fullMask: number = 0
  private fullWrite = 0
  // Decimated history and YIN's scratch.
  private readonly dec: Float32Array
  private readonly decMask: number = 0
  private decWrite = 0
  private readonly frame: Float32Array
  private readonly diff: Float64Array
  private readonly window: number = 0
  private readonly minTau: number = 0
  private readonly maxTau: number = 0
  private readonly fullWindow: number = 0
  private phase = 0
  private sinceHop = 0
  // Two cascaded Butterworth lowpass sections (anti-alias before decimation), direct form II transposed.
  private readonly c: Float64Array
  private readonly state = new Float64Array(7)
  // One sample's input and results for `push`.
  private readonly one = new Float64Array(1)
  private readonly onePeriod = new Float64Array(1)
  private readonly oneHz = new Float64Array(1)
  private readonly oneEstimated = new Uint8Array(1)

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
    this.state.fill(0)
    this.phase = this.sinceHop = 0
  }

  /** Feeds one sample; true when a new estimate was made (every `hop` samples). */
  push(x: number): boolean {
    this.one[0] = x
    this.process(this.one, 1, this.onePeriod, this.oneHz, this.oneEstimated)
    return this.oneEstimated[0] === 1
  }

  /**
   * Feeds x[0 … frames); after each sample i, period[i] and hz[i] hold the estimate then in effect
   * (as `period` and `hz` would) and estimated[i] is 1 when that sample made a new one, else 0.
   */
  process(x: Float64Array, frames: number, period: Float64Array, hz: Float64Array, estimated: Uint8Array): void {
    const full = this.full
    const fullMask = this.fullMask
    const dec = this.dec
    const decMask = this.decMask
    const decimation = this.decimation
    const hop = this.hop
    const c = this.c
    const st = this.state
    const c0 = c[0]!
    const c1 = c[1]!
    const c2 = c[2]!
    const c3 = c[3]!
    const c4 = c[4]!
    let s1 = st[S1]!
    let s2 = st[S2]!
    let s3 = st[S3]!
    let s4 = st[S4]!
    for (let i = 0; i < frames; i++) {
      const v = x[i]!
      full[this.fullWrite] = v
      this.fullWrite = (this.fullWrite + 1) & fullMask
      const y1 = c0 * v + s1
      s1 = c1 * v - c3 * y1 + s2
      s2 = c2 * v - c4 * y1
      const y2 = c0 * y1 + s3
      s3 = c1 * y1 - c3 * y2 + s4
      s4 = c2 * y1 - c4 * y2
      if (++this.phase === decimation) {
        this.phase = 0
        dec[this.decWrite] = y2
        this.decWrite = (this.decWrite + 1) & decMask
      }
      estimated[i] = 0
      if (++this.sinceHop >= hop) {
        this.sinceHop = 0
        this.analyse()
        estimated[i] = 1
      }
      period[i] = this.period
      hz[i] = this.hz
    }
    st[S1] = s1
    st[S2] = s2
    st[S3] = s3
    st[S4] = s4
  }

  private analyse(): void {
    const frame = this.frame
    const len = frame.length
    const dec = this.dec
    const mask = this.decMask
    const start = this.decWrite - len
    for (let i = 0; i < len; i++) frame[i] = dec[(start + i) & mask]!
    this.coarseLag()
    const tau = this.state[LAG]!
    if (tau <= 0) {
      this.hz = this.period = 0
      return
    }
    this.state[REFINED] = tau * this.decimation
    this.refine()
    const period = this.state[REFINED]!
    this.period = period
    this.hz = this.sampleRate / period
  }

  /** YIN on the decimated frame: state[LAG] = a fractional lag, or 0 when unvoiced. */
  private coarseLag(): void {
    const frame = this.frame
    const w = this.window
    const d = this.diff
    const maxTau = this.maxTau
    let energy = 0
    for (let j = 0; j < w; j++) energy += frame[j]! * frame[j]!
    if (energy < SILENCE * w) {
      this.clarity = 0
      this.state[LAG] = 0
      return
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
      this.state[LAG] = 0
      return
    }
    this.clarity = 1 - d[tau]!
    const a = d[tau - 1]!,
      b = d[tau]!,
      c = d[tau + 1]!
    const denom = a - 2 * b + c
    this.state[LAG] = tau + (denom > 0 ? (0.5 * (a - c)) / denom : 0)
  }

  /**
   * The minimum of the raw difference function at the full rate near the guess in state[REFINED]
   * (replaced by it): downhill from the nearest lag (at most ±decimation away), then a parabola
   * through the minimum and its neighbours.
   */
  private refine(): void {
    const st = this.state
    const guess = st[REFINED]!
    const lo = Math.max(3, Math.floor(guess) - this.decimation)
    const hi = Math.ceil(guess) + this.decimation
    let k = Math.min(hi, Math.max(lo, Math.round(guess)))
    this.difference(k, hi)
    let here = st[DIFF]!
    this.difference(k - 1, hi)
    let left = st[DIFF]!
    this.difference(k + 1, hi)
    let right = st[DIFF]!
    while (left < here && k > lo) {
      k--
      right = here
      here = left
      this.difference(k - 1, hi)
      left = st[DIFF]!
    }
    while (right < here && k < hi) {
      k++
      left = here
      here = right
      this.difference(k + 1, hi)
      right = st[DIFF]!
    }
    const denom = left - 2 * here + right
    const shift = denom > 0 ? (0.5 * (left - right)) / denom : 0
    st[REFINED] = k + Math.max(-0.5, Math.min(0.5, shift))
  }

  /** state[DIFF] = Σ (x[j] − x[j + tau])² over the full-rate window that ends `last + 1` samples before now. */
  private difference(tau: number, last: number): void {
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
    this.state[DIFF] = s
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
