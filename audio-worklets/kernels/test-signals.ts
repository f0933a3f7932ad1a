/** Test signals and measurements for the DSP kernel tests (Node and browser share these). */

export const SR = 48000

export interface StereoKernel {
  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void
}

/** Deterministic white noise in [-amp, amp] (xorshift32), so every run measures the same signal. */
export function noise(frames: number, amp = 1, seed = 0x1234567): Float32Array {
  const out = new Float32Array(frames)
  let s = seed >>> 0 || 1
  for (let i = 0; i < frames; i++) {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    out[i] = amp * ((s / 4294967296) * 2 - 1)
  }
  return out
}

export function sine(frames: number, freq: number, amp = 1, sampleRate = SR): Float32Array {
  const out = new Float32Array(frames)
  for (let i = 0; i < frames; i++) out[i] = amp * Math.sin((2 * Math.PI * freq * i) / sampleRate)
  return out
}

export function square(frames: number, freq: number, amp = 1, sampleRate = SR): Float32Array {
  const out = new Float32Array(frames)
  const period = sampleRate / freq
  for (let i = 0; i < frames; i++) out[i] = i % period < period / 2 ? amp : -amp
  return out
}

/** Runs a kernel over whole buffers in 128-frame blocks (as the worklet does). */
export function render(kernel: StereoKernel, inL: Float32Array, inR: Float32Array = inL, block = 128): [Float32Array, Float32Array] {
  const n = inL.length
  const outL = new Float32Array(n)
  const outR = new Float32Array(n)
  const a = new Float32Array(block),
    b = new Float32Array(block),
    c = new Float32Array(block),
    d = new Float32Array(block)
  for (let start = 0; start < n; start += block) {
    const frames = Math.min(block, n - start)
    a.set(inL.subarray(start, start + frames))
    b.set(inR.subarray(start, start + frames))
    kernel.process(a, b, c, d, frames)
    outL.set(c.subarray(0, frames), start)
    outR.set(d.subarray(0, frames), start)
  }
  return [outL, outR]
}

export function rms(x: Float32Array, from = 0, to = x.length): number {
  let s = 0
  for (let i = from; i < to; i++) s += x[i]! * x[i]!
  return Math.sqrt(s / Math.max(1, to - from))
}

export function peak(x: Float32Array, from = 0, to = x.length): number {
  let p = 0
  for (let i = from; i < to; i++) p = Math.max(p, Math.abs(x[i]!))
  return p
}

export const db = (ratio: number): number => 20 * Math.log10(ratio)

/** Amplitude of the component at `freq` over x[from, from+n) (single-bin DFT). */
export function amplitudeAt(x: Float32Array, freq: number, from: number, n: number, sampleRate = SR): number {
  let re = 0,
    im = 0
  const w = (2 * Math.PI * freq) / sampleRate
  for (let i = 0; i < n; i++) {
    const v = x[from + i]!
    re += v * Math.cos(w * i)
    im -= v * Math.sin(w * i)
  }
  return (2 * Math.sqrt(re * re + im * im)) / n
}

/** Largest sample-to-sample difference in x[from, to). */
export function maxStep(x: Float32Array, from: number, to: number): number {
  let m = 0
  for (let i = Math.max(1, from); i < to; i++) m = Math.max(m, Math.abs(x[i]! - x[i - 1]!))
  return m
}

export function allFinite(...xs: Float32Array[]): boolean {
  for (const x of xs) for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]!)) return false
  return true
}

/** |H(e^jw)| of normalised biquad coefficients [b0,b1,b2,a1,a2]. */
export function biquadMagnitude(c: ArrayLike<number>, freq: number, sampleRate = SR): number {
  const w = (2 * Math.PI * freq) / sampleRate
  const cos1 = Math.cos(w),
    sin1 = Math.sin(w),
    cos2 = Math.cos(2 * w),
    sin2 = Math.sin(2 * w)
  const nr = c[0]! + c[1]! * cos1 + c[2]! * cos2
  const ni = -(c[1]! * sin1 + c[2]! * sin2)
  const dr = 1 + c[3]! * cos1 + c[4]! * cos2
  const di = -(c[3]! * sin1 + c[4]! * sin2)
  return Math.sqrt((nr * nr + ni * ni) / (dr * dr + di * di))
}

/** RBJ cookbook lowpass/highpass coefficients, written out independently of the kernel. */
export function cookbook(mode: 'lowpass' | 'highpass', f0: number, q: number, sampleRate = SR): number[] {
  const w0 = (2 * Math.PI * f0) / sampleRate
  const alpha = Math.sin(w0) / (2 * q)
  const cs = Math.cos(w0)
  const a0 = 1 + alpha
  const b = mode === 'lowpass' ? [(1 - cs) / 2, 1 - cs, (1 - cs) / 2] : [(1 + cs) / 2, -(1 + cs), (1 + cs) / 2]
  return [b[0]! / a0, b[1]! / a0, b[2]! / a0, (-2 * cs) / a0, (1 - alpha) / a0]
}

/** Power spectrum (|X_k|², k = 0 … n/2) of x[from, from+n) under a Hann window; n a power of two (radix-2 FFT). */
export function powerSpectrum(x: Float32Array, from: number, n: number): Float64Array {
  const re = new Float64Array(n)
  const im = new Float64Array(n)
  for (let i = 0; i < n; i++) re[i] = (x[from + i] ?? 0) * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n))
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1
    for (; j & bit; bit >>= 1) j ^= bit
    j ^= bit
    if (i < j) {
      const t = re[i]!
      re[i] = re[j]!
      re[j] = t
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k),
          wi = Math.sin(ang * k)
        const a = i + k,
          b = a + len / 2
        const tr = re[b]! * wr - im[b]! * wi
        const ti = re[b]! * wi + im[b]! * wr
        re[b] = re[a]! - tr
        im[b] = im[a]! - ti
        re[a] = re[a]! + tr
        im[a] = im[a]! + ti
      }
    }
  }
  const out = new Float64Array(n / 2 + 1)
  for (let k = 0; k <= n / 2; k++) out[k] = re[k]! * re[k]! + im[k]! * im[k]!
  return out
}

/** Strongest frequency within guess ± span (Hann-windowed DFT scanned in `step` Hz over x[from, from+n)). */
export function peakNear(x: Float32Array, guess: number, span: number, from: number, n: number, sampleRate = SR, step = 0.25): number {
  let best = guess,
    bestPower = -1
  for (let f = guess - span; f <= guess + span; f += step) {
    let re = 0,
      im = 0
    const w = (2 * Math.PI * f) / sampleRate
    for (let i = 0; i < n; i++) {
      const v = x[from + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n))
      re += v * Math.cos(w * i)
      im += v * Math.sin(w * i)
    }
    const p = re * re + im * im
    if (p > bestPower) {
      bestPower = p
      best = f
    }
  }
  return best
}

/**
 * Tonal artefacts in noise: the spectrum averaged over `n`-point frames (Welch), then its largest
 * bin over the median bin in dB (white noise: ~6–8 dB for n = 4096 over a second) and its
 * flatness (geometric / arithmetic mean, 1 = perfectly flat), between lowHz and highHz.
 */
export function noiseTonality(
  x: Float32Array,
  sampleRate = SR,
  n = 4096,
  lowHz = 50,
  highHz = 8000,
): { peakToMedianDb: number; flatness: number } {
  const avg = new Float64Array(n / 2 + 1)
  let frames = 0
  for (let from = 0; from + n <= x.length; from += n / 2, frames++) {
    const p = powerSpectrum(x, from, n)
    for (let k = 0; k < avg.length; k++) avg[k]! += p[k]!
  }
  const lo = Math.ceil((lowHz * n) / sampleRate),
    hi = Math.floor((highHz * n) / sampleRate)
  const band = Array.from(avg.subarray(lo, hi + 1), (v) => v / Math.max(1, frames))
  const sorted = [...band].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  let logSum = 0,
    sum = 0
  for (const v of band) {
    logSum += Math.log(v + 1e-30)
    sum += v
  }
  return { peakToMedianDb: 10 * Math.log10(sorted.at(-1)! / median), flatness: Math.exp(logSum / band.length) / (sum / band.length) }
}

/** Frequency from the mean period between upward zero crossings (interpolated) over the middle. */
export function zeroCrossingHz(x: Float32Array, sampleRate: number, from = 0.2, to = 0.8): number {
  const crossings: number[] = []
  const a = Math.floor(x.length * from),
    b = Math.floor(x.length * to)
  for (let i = a + 1; i < b; i++) {
    if (x[i - 1]! < 0 && x[i]! >= 0) crossings.push(i - 1 + x[i - 1]! / (x[i - 1]! - x[i]!))
  }
  return ((crossings.length - 1) * sampleRate) / (crossings.at(-1)! - crossings[0]!)
}

/** Clicks (200-sample alternating-sign bursts decaying over 40 samples) every `intervalS` from 0.1 s. */
export function clickTrack(seconds: number, intervalS: number, sampleRate = SR): Float32Array {
  const x = new Float32Array(Math.round(seconds * sampleRate))
  for (let t = 0.1; t < seconds - 0.05; t += intervalS) {
    const s = Math.round(t * sampleRate)
    for (let i = 0; i < 200; i++) x[s + i] = Math.exp(-i / 40) * (i % 2 === 0 ? 1 : -1)
  }
  return x
}

/** Seconds where |x| first exceeds `threshold`, at least `refractoryS` apart. */
export function onsets(x: Float32Array, threshold: number, sampleRate = SR, refractoryS = 0.1): number[] {
  const found: number[] = []
  let last = -Infinity
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]!) > threshold && i - last > refractoryS * sampleRate) {
      found.push(i / sampleRate)
      last = i
    }
  }
  return found
}
