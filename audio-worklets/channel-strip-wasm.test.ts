/**
 * The WebAssembly strip (wasm/strip.wasm) against (a) the JavaScript kernels it replaces, run as
 * the JS chain (channel-strip-chain.ts) or alone, and (b) each effect's analytic reference. Every
 * effect is measured alone through the whole strip (the others at neutral are skipped, so the strip
 * around it is bit-transparent), which is the shipped path.
 *
 * Tolerances: against the JS kernels |difference| ≤ 2^-20 (−120 dBFS) on every sample, steady and
 * while controls glide (measured: bit for bit equal); against the analytic references as each test states.
 */
import { describe, expect, it } from 'vitest'
import { ChannelStripChain } from './channel-strip-chain.ts'
import { STRIP_PARAM_NAMES, type StripParamName } from './channel-strip-params.ts'
import { WasmChannelStrip } from './channel-strip-wasm.ts'
import { stripModule } from './strip-module.node.ts'
import { BiquadKernel, BUTTERWORTH_Q, cutoffForAmount } from './kernels/biquad.ts'
import { CompressorKernel, compressorSettingsForAmount, staticGainDb } from './kernels/compressor.ts'
import { CHORUS_BASE_DELAY_SECONDS, CHORUS_RATE_HZ, chorusSettingsForAmount } from './kernels/chorus.ts'
import { DELAY_STRIP_TIME_SECONDS, delaySettingsForAmount } from './kernels/delay.ts'
import { compensationForDrive, DistortionKernel, driveForAmount, softClip } from './kernels/distortion.ts'
import { LevelMeter } from './kernels/meter.ts'
import { ReverbKernel } from './kernels/reverb.ts'
import { panGains } from './kernels/pan.ts'
import { amplitudeAt, biquadMagnitude, cookbook, db, noise, render, sine, SR } from './kernels/test-signals.ts'

type Controls = Partial<Record<StripParamName, number>>
const JS_TOLERANCE = 2 ** -20
const Q = 128

/** The WebAssembly strip over whole buffers, quantum by quantum; `changes` land at their quantum. */
function renderWasm(controls: Controls, inL: Float32Array, inR = inL, changes: { at: number; controls: Controls }[] = []) {
  const strip = new WasmChannelStrip(stripModule(), SR)
  for (const [name, v] of Object.entries(controls)) strip.set(name as StripParamName, v)
  strip.snap()
  const outL = new Float32Array(inL.length)
  const outR = new Float32Array(inL.length)
  for (let pos = 0; pos < inL.length; pos += Q) {
    for (const c of changes) if (c.at === pos) for (const [name, v] of Object.entries(c.controls)) strip.set(name as StripParamName, v)
    const n = Math.min(Q, inL.length - pos)
    strip.inL.fill(0).set(inL.subarray(pos, pos + n))
    strip.inR.fill(0).set(inR.subarray(pos, pos + n))
    strip.process(true)
    outL.set(strip.outL.subarray(0, n), pos)
    outR.set(strip.outR.subarray(0, n), pos)
  }
  return [outL, outR] as const
}

/** The same through the JS chain (the reference), with float32 control values as an AudioParam holds them. */
function renderJs(controls: Controls, inL: Float32Array, inR = inL, changes: { at: number; controls: Controls }[] = []) {
  const chain = new ChannelStripChain(SR)
  const set = (c: Controls) => {
    for (const [name, v] of Object.entries(c))
      chain.set(name as StripParamName, Math.fround(v), STRIP_PARAM_NAMES.indexOf(name as StripParamName))
  }
  set(controls)
  chain.snap()
  const outL = new Float32Array(inL.length)
  const outR = new Float32Array(inL.length)
  const l = new Float32Array(Q)
  const r = new Float32Array(Q)
  for (let pos = 0; pos < inL.length; pos += Q) {
    for (const c of changes) if (c.at === pos) set(c.controls)
    const n = Math.min(Q, inL.length - pos)
    l.fill(0).set(inL.subarray(pos, pos + n))
    r.fill(0).set(inR.subarray(pos, pos + n))
    chain.process(l, r, Q)
    outL.set(l.subarray(0, n), pos)
    outR.set(r.subarray(0, n), pos)
  }
  return [outL, outR] as const
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

describe('the WebAssembly strip against the JavaScript kernels', () => {
  const x = noise(SR, 0.7, 11)
  const y = noise(SR, 0.7, 12)
  const cases: [string, Controls][] = [
    ['lowpass', { lowpass: 60 }],
    ['highpass', { highpass: 60 }],
    ['distortion', { distortion: 60 }],
    ['compression', { compression: 60 }],
    ['chorus', { chorus: 60 }],
    ['delay', { delay: 60 }],
    ['reverb', { reverb: 60 }],
    ['volume', { volume: 40 }],
    ['pan', { pan: -30 }],
    ['enabled', { enabled: 1 }],
  ]
  for (const [name, on] of cases) {
    it(`${name}: steady, gliding to a new value, off (bypass fade and reset) and on again, within 2^-20`, () => {
      const key = Object.keys(on)[0] as StripParamName
      const changes = [
        { at: 128 * 60, controls: { [key]: key === 'pan' ? 35 : key === 'enabled' ? 0 : 25 } },
        { at: 128 * 150, controls: { [key]: key === 'volume' ? 100 : key === 'enabled' ? 1 : 0 } },
        { at: 128 * 260, controls: on },
      ]
      const [wl, wr] = renderWasm(on, x, y, changes)
      const [jl, jr] = renderJs(on, x, y, changes)
      expect(Math.max(maxDifference(wl, jl), maxDifference(wr, jr))).toBeLessThanOrEqual(JS_TOLERANCE)
    })
  }

  it('every effect at once, with all controls moving every 40 quanta, within 2^-20', () => {
    const all: Controls = {
      lowpass: 40,
      highpass: 30,
      distortion: 50,
      compression: 70,
      chorus: 40,
      delay: 45,
      reverb: 35,
      volume: 70,
      pan: 20,
    }
    const changes = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => ({
      at: 128 * 40 * k,
      controls: Object.fromEntries(Object.keys(all).map((n, i) => [n, n === 'pan' ? ((k * 17 + i) % 100) - 50 : (k * 29 + i * 13) % 101])),
    }))
    const [wl, wr] = renderWasm(all, x, y, changes)
    const [jl, jr] = renderJs(all, x, y, changes)
    expect(Math.max(maxDifference(wl, jl), maxDifference(wr, jr))).toBeLessThanOrEqual(JS_TOLERANCE)
  })

  it('the distortion kernel alone (halfband up, shaper, halfband down) equals DistortionKernel', () => {
    const k = new DistortionKernel(SR, 80)
    k.snap()
    const [jl, jr] = render(k, x, y)
    const [wl, wr] = renderWasm({ distortion: 80 }, x, y)
    expect(Math.max(maxDifference(wl, jl), maxDifference(wr, jr))).toBeLessThanOrEqual(JS_TOLERANCE)
  })

  it('the compressor alone equals CompressorKernel', () => {
    const k = new CompressorKernel(SR, 80)
    k.snap()
    const [jl, jr] = render(k, x, y)
    const [wl, wr] = renderWasm({ compression: 80 }, x, y)
    expect(Math.max(maxDifference(wl, jl), maxDifference(wr, jr))).toBeLessThanOrEqual(JS_TOLERANCE)
  })

  it('the reverb alone (in strip.wasm since the whole quantum runs there) equals ReverbKernel bit for bit, through its tail', () => {
    // Noise, then 8 s of silence: the network rings out below −100 dB.
    const tail = new Float32Array(x.length + 8 * SR)
    tail.set(x)
    const k = new ReverbKernel(SR, 70)
    k.snap()
    // In place, as both strips run it (the kernel's silence check then sees the block it outputs).
    const jl = tail.slice()
    const jr = tail.slice()
    for (let pos = 0; pos < tail.length; pos += 128) {
      const l = jl.subarray(pos, pos + 128)
      const r = jr.subarray(pos, pos + 128)
      k.process(l, r, l, r, l.length)
    }
    const [wl, wr] = renderWasm({ reverb: 70 }, tail, tail)
    expect(Math.max(maxDifference(wl, jl), maxDifference(wr, jr))).toBe(0)
    expect(jl.subarray(x.length + 2 * SR).some((v) => v !== 0)).toBe(true)
  })

  it('the meter: the same peak and RMS windows as LevelMeter', () => {
    const strip = new WasmChannelStrip(stripModule(), SR, SR / 30)
    const meter = new LevelMeter(SR / 30)
    const l = new Float32Array(Q)
    const r = new Float32Array(Q)
    let windows = 0
    for (let pos = 0; pos + Q <= x.length; pos += Q) {
      strip.inL.set(x.subarray(pos, pos + Q))
      strip.inR.set(y.subarray(pos, pos + Q))
      strip.process(true)
      l.set(strip.outL)
      r.set(strip.outR)
      const done = strip.measure()
      expect(done).toBe(meter.add(l, r, Q))
      if (done) {
        windows++
        expect(strip.levels).toEqual({ ...meter.levels })
      }
    }
    expect(windows).toBe(30)
  })
})

describe('the WebAssembly strip against analytic references', () => {
  it('lowpass and highpass: the RBJ Butterworth magnitude within 0.05 dB from fc/4 to 4·fc', () => {
    const from = SR / 4
    for (const mode of ['lowpass', 'highpass'] as const) {
      for (const amount of [25, 50, 75]) {
        const fc = cutoffForAmount(mode, amount)
        const reference = cookbook(mode, fc, BUTTERWORTH_Q)
        for (const ratio of [0.25, 0.5, 1, 2, 4]) {
          const f = Math.round(fc * ratio)
          if (f < 20 || f > 20000) continue
          const [out] = renderWasm({ [mode]: amount }, sine(from + SR, f, 0.5))
          const gainDb = db(amplitudeAt(out, f, from, SR) / 0.5)
          expect(Math.abs(gainDb - db(biquadMagnitude(reference, f))), `${mode} ${amount} at ${f} Hz`).toBeLessThan(0.05)
        }
      }
    }
  })

  it('the biquad kernel cutoff is what the strip uses (a cross-check of the reference above)', () => {
    const k = new BiquadKernel(SR, 'lowpass')
    k.setAmount(50)
    k.snap()
    expect(k.cutoffHz).toBeCloseTo(cutoffForAmount('lowpass', 50), 6)
  })

  it('distortion: fundamental, 3rd and 5th harmonic of a 1 kHz sine within 0.3 dB of the ideal static curve; THD within 0.3 dB', () => {
    const amount = 50
    const drive = driveForAmount(amount)
    const comp = compensationForDrive(drive)
    const settle = 4800
    const input = sine(settle + SR, 1000, 0.5)
    const [out] = renderWasm({ distortion: amount }, input)
    // The ideal: the shaper applied to the continuous sine (no aliasing, no filtering), sampled.
    const ideal = new Float32Array(SR)
    for (let i = 0; i < SR; i++) ideal[i] = softClip(drive * 0.5 * Math.sin((2 * Math.PI * 1000 * (i + settle - 15)) / SR)) * comp
    const harmonic = (y: Float32Array, from: number, k: number) => amplitudeAt(y, 1000 * k, from, SR)
    for (const k of [1, 3, 5]) expect(Math.abs(db(harmonic(out, settle, k) / harmonic(ideal, 0, k))), `harmonic ${k}`).toBeLessThan(0.3)
    const thd = (y: Float32Array, from: number) => {
      let h = 0
      for (let k = 2; k <= 15; k++) h += harmonic(y, from, k) ** 2
      return 10 * Math.log10(h / harmonic(y, from, 1) ** 2)
    }
    expect(Math.abs(thd(out, settle) - thd(ideal, 0))).toBeLessThan(0.3)
  })

  it('compressor: the static curve on DC within 0.01 dB, and the attack and release envelopes of a step within 0.02 dB', () => {
    const amount = 60
    const s = compressorSettingsForAmount(amount)
    const att = 1 - Math.exp(-1 / (s.attackSeconds * SR))
    const rel = 1 - Math.exp(-1 / (s.releaseSeconds * SR))
    const slope = 1 - 1 / s.ratio
    const gainDbFor = (env: number) => {
      const over = 20 * Math.log10(env) - s.thresholdDb
      return (over > 0 ? -over * slope : 0) + s.makeupDb
    }
    // 0.5 s of DC at 0 dBFS from silence (attack), then 0.5 s at −20 dBFS (release).
    const half = SR / 2
    const input = new Float32Array(SR).fill(1)
    input.fill(0.1, half)
    const [out] = renderWasm({ compression: amount }, input)
    // The detector is a one-pole peak follower: env(n) = target + (start − target)·(1 − c)^n,
    // evaluated where the gain computer runs (the last frame of every 16).
    let worst = 0
    for (let n = 15; n < SR; n += 16) {
      const env = n < half ? 1 - (1 - att) ** (n + 1) : 0.1 + (1 - (1 - att) ** half - 0.1) * (1 - rel) ** (n + 1 - half)
      if (env < 1e-6) continue
      worst = Math.max(worst, Math.abs(db(out[n]! / input[n]!) - gainDbFor(env)))
    }
    expect(worst).toBeLessThan(0.02)
    expect(Math.abs(db(out[half - 1]!) - staticGainDb(0, s))).toBeLessThan(0.01)
  })

  it('chorus: each channel is dry + mix·(the input read back at base + depth·LFO), within 1e-3', () => {
    const amount = 100
    const { mix, depthSeconds } = chorusSettingsForAmount(amount)
    const base = CHORUS_BASE_DELAY_SECONDS * SR
    const depth = depthSeconds * SR
    const w = (2 * Math.PI * CHORUS_RATE_HZ) / SR
    const f = 200
    const xs = (t: number) => 0.5 * Math.sin((2 * Math.PI * f * t) / SR)
    const input = new Float32Array(SR)
    for (let i = 0; i < SR; i++) input[i] = xs(i)
    const [outL, outR] = renderWasm({ chorus: amount }, input)
    let worst = 0
    for (let i = Math.ceil(base + depth) + 1; i < SR; i++) {
      // The LFO phasor advances before each frame: frame i reads with phase (i + 1)·w.
      const wl = xs(i - (base + depth * Math.sin((i + 1) * w)))
      const wr = xs(i - (base + depth * Math.cos((i + 1) * w)))
      worst = Math.max(
        worst,
        Math.abs(outL[i]! - (input[i]! + mix * (wl - input[i]!))),
        Math.abs(outR[i]! - (input[i]! + mix * (wr - input[i]!))),
      )
    }
    expect(worst).toBeLessThan(1e-3)
  })

  it('delay: an impulse returns at every 0.3 s with gain wet·feedback^(k−1), and nothing between, within 1e-6', () => {
    const amount = 50
    const { wet, feedback } = delaySettingsForAmount(amount)
    const d = Math.round(DELAY_STRIP_TIME_SECONDS * SR)
    const input = new Float32Array(3 * d + 256)
    input[0] = 1
    const [out] = renderWasm({ delay: amount }, input)
    const expected = new Float32Array(input.length)
    expected[0] = 1
    for (let k = 1; k * d < input.length; k++) expected[k * d] = wet * feedback ** (k - 1)
    expect(maxDifference(out, expected)).toBeLessThan(1e-6)
  })

  it('volume and pan: gain (v/100)² and equal-power √2·cos/√2·sin exactly, to float32 rounding', () => {
    const input = noise(4096, 0.8, 5)
    const [l50] = renderWasm({ volume: 50 }, input)
    for (let i = 0; i < input.length; i++) expect(l50[i]).toBe(input[i]! * 0.25)
    const [pl, pr] = renderWasm({ pan: 25, volume: 70 }, input)
    const g = panGains(25)
    const v = 0.7 * 0.7
    for (let i = 0; i < input.length; i++) {
      expect(pl[i]).toBe(Math.fround(input[i]! * (g.left * v)))
      expect(pr[i]).toBe(Math.fround(input[i]! * (g.right * v)))
    }
  })

  it('meter: a 1.5 kHz sine at −6 dBFS (50 whole periods a window) reads peak 0.5 and RMS 0.5/√2 within 1e-4', () => {
    const strip = new WasmChannelStrip(stripModule(), SR, SR / 30)
    const input = sine(SR, 1500, 0.5)
    for (let pos = 0; pos < SR; pos += Q) {
      strip.inL.set(input.subarray(pos, pos + Q))
      strip.inR.set(input.subarray(pos, pos + Q))
      strip.process(true)
      if (strip.measure() && pos > SR / 2) {
        const lv = strip.levels
        expect(Math.abs(lv.peakL - 0.5)).toBeLessThan(1e-4)
        expect(Math.abs(lv.rmsR - 0.5 / Math.SQRT2)).toBeLessThan(1e-4)
      }
    }
  })
})

describe('the WebAssembly strip as a component', () => {
  it('neutral controls pass audio bit for bit; no input is exact silence', () => {
    const input = noise(SR / 4, 1, 3)
    const [l, r] = renderWasm({}, input, input)
    expect(maxDifference(l, input) + maxDifference(r, input)).toBe(0)
    const strip = new WasmChannelStrip(stripModule(), SR)
    strip.set('reverb', 50)
    strip.snap()
    strip.process(false)
    expect(strip.outL.every((v) => v === 0) && strip.outR.every((v) => v === 0)).toBe(true)
  })

  it('refuses what is not the strip module or an unusable sample rate, in words', () => {
    expect(() => new WasmChannelStrip({} as WebAssembly.Module, SR)).toThrow(/compiled WebAssembly.Module/)
    expect(() => new WasmChannelStrip(stripModule(), 0)).toThrow(/sample rate/)
    expect(() => new WasmChannelStrip(stripModule(), SR).set('loudness' as StripParamName, 1)).toThrow(/No strip control named loudness/)
  })
})
