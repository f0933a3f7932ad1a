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
    s ^= s << 13; s >>>= 0
    s ^= s >>> 17
    s ^= s << 5; s >>>= 0
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
  for (let i = 0; i < frames; i++) out[i] = (i % period) < period / 2 ? amp : -amp
  return out
}

/** Runs a kernel over whole buffers in 128-frame blocks (as the worklet does). */
export function render(kernel: StereoKernel, inL: Float32Array, inR: Float32Array = inL, block = 128): [Float32Array, Float32Array] {
  const n = inL.length
  const outL = new Float32Array(n)
  const outR = new Float32Array(n)
  const a = new Float32Array(block), b = new Float32Array(block), c = new Float32Array(block), d = new Float32Array(block)
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
  let re = 0, im = 0
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
  const cos1 = Math.cos(w), sin1 = Math.sin(w), cos2 = Math.cos(2 * w), sin2 = Math.sin(2 * w)
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
