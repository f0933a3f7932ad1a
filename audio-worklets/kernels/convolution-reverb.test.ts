/**
 * The WebAssembly convolution reverb against references: a direct convolution in double precision
 * (null test over a response long enough to use all three partition stages), a unit impulse that
 * must give back the response itself, and the energy decay of an exponentially decaying noise
 * response whose RT60 is known in closed form. Plus the ConvolverNode normalisation and bitwise
 * repeatability between instances.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConvolutionReverb, convolverNormalisation, instantiateReverb } from './convolution-reverb.ts'
import { RENDER_QUANTUM_FRAMES as Q } from '../render-quantum.ts'

const module = new WebAssembly.Module(readFileSync(new URL('../wasm/reverb.wasm', import.meta.url)))
const SR = 44_100

function noise(frames: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1
  const out = new Float32Array(frames)
  for (let i = 0; i < frames; i++) {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    out[i] = (s / 4294967296) * 2 - 1
  }
  return out
}

/** Runs the kernel over whole quanta of input (zero-padded) plus `tail` frames of silence. */
function run(reverb: ConvolutionReverb, inL: Float32Array, inR: Float32Array, frames: number): [Float32Array, Float32Array] {
  const outL = new Float32Array(Math.ceil(frames / Q) * Q)
  const outR = new Float32Array(outL.length)
  const qL = new Float32Array(Q)
  const qR = new Float32Array(Q)
  const oL = new Float32Array(Q)
  const oR = new Float32Array(Q)
  for (let at = 0; at < outL.length; at += Q) {
    qL.fill(0)
    qR.fill(0)
    if (at < inL.length) qL.set(inL.subarray(at, Math.min(inL.length, at + Q)))
    if (at < inR.length) qR.set(inR.subarray(at, Math.min(inR.length, at + Q)))
    reverb.process(qL, qR, oL, oR)
    outL.set(oL, at)
    outR.set(oR, at)
  }
  return [outL.subarray(0, frames), outR.subarray(0, frames)]
}

function directConvolution(x: Float32Array, h: Float32Array, frames: number, scale: number): Float64Array {
  const y = new Float64Array(frames)
  for (let k = 0; k < x.length; k++) {
    const xk = x[k]!
    if (xk === 0) continue
    const end = Math.min(h.length, frames - k)
    for (let j = 0; j < end; j++) y[k + j]! += xk * h[j]!
  }
  for (let i = 0; i < frames; i++) y[i]! *= scale
  return y
}

function rms(a: ArrayLike<number>): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * a[i]!
  return Math.sqrt(s / a.length)
}

function residualDb(actual: Float32Array, reference: Float64Array): { rmsDb: number; peakDb: number } {
  let peakRef = 0
  let peakErr = 0
  const err = new Float64Array(reference.length)
  for (let i = 0; i < reference.length; i++) {
    err[i] = actual[i]! - reference[i]!
    peakRef = Math.max(peakRef, Math.abs(reference[i]!))
    peakErr = Math.max(peakErr, Math.abs(err[i]!))
  }
  return { rmsDb: 20 * Math.log10(rms(err) / rms(reference)), peakDb: 20 * Math.log10(peakErr / peakRef) }
}

describe('convolution reverb kernel (WebAssembly)', () => {
  it('nulls against a direct convolution to below -120 dB over all three partition stages', () => {
    // 20,000 frames of response: stage 0 to frame 896, stage 1 to 8064, stage 2 the rest.
    const hL = noise(20_000, 1)
    const hR = noise(20_000, 2)
    // Bursts of noise with silences between, so partial blocks and ringing tails are both tested.
    const x = (seed: number) => {
      const v = noise(12_000, seed)
      for (let i = 0; i < v.length; i++) if (Math.floor(i / 1500) % 3 === 1) v[i] = 0
      return v
    }
    const xL = x(3)
    const xR = x(4)
    const frames = 34_000
    const reverb = new ConvolutionReverb(instantiateReverb(module), hL, hR, 0.01)
    const [yL, yR] = run(reverb, xL, xR, frames)
    const left = residualDb(yL, directConvolution(xL, hL, frames, 0.01))
    const right = residualDb(yR, directConvolution(xR, hR, frames, 0.01))
    for (const r of [left, right]) {
      expect(r.rmsDb).toBeLessThan(-120)
      expect(r.peakDb).toBeLessThan(-120)
    }
  })

  it('a unit impulse gives back the response itself, sample for sample (zero latency, every stage boundary)', () => {
    const hL = noise(40_000, 5)
    const hR = noise(40_000, 6)
    const reverb = new ConvolutionReverb(instantiateReverb(module), hL, hR)
    const impulse = new Float32Array(Q)
    impulse[0] = 1
    const [yL, yR] = run(reverb, impulse, impulse, 41_000)
    let worst = 0
    for (let i = 0; i < 40_000; i++) worst = Math.max(worst, Math.abs(yL[i]! - hL[i]!), Math.abs(yR[i]! - hR[i]!))
    expect(worst).toBeLessThan(2e-6)
    // Nothing after the response ends.
    expect(rms(yL.subarray(40_000))).toBeLessThan(1e-6)
    expect(rms(yR.subarray(40_000))).toBeLessThan(1e-6)
  })

  it('the energy decay of an exponentially decaying response gives its RT60 within 3 %', () => {
    // A noise response with an amplitude envelope exp(-6.91 t / T60) falls 60 dB in T60 seconds.
    const T60 = 1.5
    const n = Math.round(2 * T60 * SR)
    const make = (seed: number) => {
      const v = noise(n, seed)
      for (let i = 0; i < n; i++) v[i]! *= Math.exp((-3 * Math.LN10 * i) / (T60 * SR))
      return v
    }
    const reverb = new ConvolutionReverb(instantiateReverb(module), make(7), make(8))
    const impulse = new Float32Array(Q)
    impulse[0] = 1
    const [yL] = run(reverb, impulse, impulse, n)
    // Schroeder backward integration; T30 from its -5 … -35 dB span, extrapolated to 60 dB.
    const edc = new Float64Array(n)
    let acc = 0
    for (let i = n - 1; i >= 0; i--) edc[i] = acc += yL[i]! * yL[i]!
    const db = (i: number) => 10 * Math.log10(edc[i]! / edc[0]!)
    const first = (level: number) => {
      let i = 0
      while (i < n - 1 && db(i) > level) i++
      return i
    }
    const rt60 = ((first(-35) - first(-5)) / SR) * 2
    expect(Math.abs(rt60 - T60) / T60).toBeLessThan(0.03)
  })

  it("normalises a response as Chromium's ConvolverNode does: RMS to -58 dB at 44.1 kHz", () => {
    const h = new Float32Array(1000).fill(0.5)
    expect(convolverNormalisation(h, h, 44_100)).toBeCloseTo(10 ** (-58 / 20) / 0.5, 9)
    expect(convolverNormalisation(h, h, 48_000)).toBeCloseTo(((10 ** (-58 / 20) / 0.5) * 44_100) / 48_000, 9)
    // A silent response is not blown up to infinity.
    expect(convolverNormalisation(new Float32Array(10), new Float32Array(10), 44_100)).toBeCloseTo(10 ** (-58 / 20) / 0.000125, 6)
  })

  it('two instances given the same response and input give the same bits', () => {
    const hL = noise(12_000, 9)
    const hR = noise(12_000, 10)
    const x = noise(30_000, 11)
    const a = run(new ConvolutionReverb(instantiateReverb(module), hL, hR, 0.02), x, x, 30_000)
    const b = run(new ConvolutionReverb(instantiateReverb(module), hL, hR, 0.02), x, x, 30_000)
    expect(Buffer.from(a[0].buffer).equals(Buffer.from(b[0].buffer))).toBe(true)
    expect(Buffer.from(a[1].buffer).equals(Buffer.from(b[1].buffer))).toBe(true)
  })

  it('refuses a response it cannot use, in words', () => {
    expect(() => new ConvolutionReverb(instantiateReverb(module), new Float32Array(4), new Float32Array(5))).toThrow(
      /equal, non-zero length/,
    )
    const instance = instantiateReverb(module)
    new ConvolutionReverb(instance, new Float32Array(4), new Float32Array(4))
    expect(() => new ConvolutionReverb(instance, new Float32Array(4), new Float32Array(4))).toThrow(/one impulse response/)
  })
})
