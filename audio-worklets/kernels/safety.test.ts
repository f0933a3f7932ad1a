import { describe, expect, it } from 'vitest'
import { BiquadKernel } from './biquad.ts'
import { ChorusKernel } from './chorus.ts'
import { CompressorKernel } from './compressor.ts'
import { DelayKernel } from './delay.ts'
import { DistortionKernel } from './distortion.ts'
import { GainKernel } from './gain.ts'
import { PanKernel } from './pan.ts'
import { ReverbKernel } from './reverb.ts'
import { WasmChannelStrip } from '../channel-strip-wasm.ts'
import { stripModule } from '../strip-module.node.ts'
import { STRIP_PARAM_NAMES } from '../channel-strip-params.ts'
import { allFinite, maxStep, noise, peak, render, sine, SR, type StereoKernel } from './test-signals.ts'

interface Case {
  name: string
  make: (amount: number) => StereoKernel & { snap(): void }
  set: (k: never, amount: number) => void
  /** Control values for the jump test (low → high). */
  low: number
  high: number
  /** Test tone for the jump: one the effect changes a lot between low and high. */
  freq: number
}

const CASES: Case[] = [
  {
    name: 'lowpass',
    freq: 1000,
    make: (a) => new BiquadKernel(SR, 'lowpass', a),
    set: (k: BiquadKernel, a) => k.setAmount(a),
    low: 0,
    high: 100,
  },
  {
    name: 'highpass',
    freq: 50,
    make: (a) => new BiquadKernel(SR, 'highpass', a),
    set: (k: BiquadKernel, a) => k.setAmount(a),
    low: 0,
    high: 100,
  },
  {
    name: 'distortion',
    freq: 50,
    make: (a) => new DistortionKernel(SR, a),
    set: (k: DistortionKernel, a) => k.setAmount(a),
    low: 0,
    high: 100,
  },
  {
    name: 'compression',
    freq: 50,
    make: (a) => new CompressorKernel(SR, a),
    set: (k: CompressorKernel, a) => k.setAmount(a),
    low: 0,
    high: 100,
  },
  { name: 'chorus', freq: 1000, make: (a) => new ChorusKernel(SR, a), set: (k: ChorusKernel, a) => k.setAmount(a), low: 0, high: 100 },
  {
    name: 'delay',
    freq: 50,
    make: (a) => new DelayKernel(SR, 0.3, a / 100, a / 100),
    set: (k: DelayKernel, a) => {
      k.setWet(a / 100)
      k.setFeedback(a / 100)
    },
    low: 0,
    high: 100,
  },
  { name: 'reverb', freq: 50, make: (a) => new ReverbKernel(SR, a), set: (k: ReverbKernel, a) => k.setAmount(a), low: 0, high: 100 },
  { name: 'volume', freq: 50, make: (a) => new GainKernel(SR, a), set: (k: GainKernel, a) => k.setVolume(a), low: 0, high: 100 },
  { name: 'pan', freq: 50, make: (a) => new PanKernel(SR, a - 50), set: (k: PanKernel, a) => k.setPan(a - 50), low: 0, high: 100 },
]

const EXTREME_INPUTS: Record<string, Float32Array> = {
  'full-scale noise': noise(SR, 1),
  'DC at +1': new Float32Array(SR).fill(1),
  'Nyquist square ±1': Float32Array.from({ length: SR }, (_, i) => (i % 2 ? 1 : -1)),
  'very loud (+60 dBFS) noise': noise(SR, 1000),
  'tiny (-300 dBFS) noise': noise(SR, 1e-15),
}

describe('every kernel', () => {
  for (const c of CASES) {
    it(`${c.name}: silence in gives exact silence out at 0, 50 and 100`, () => {
      for (const amount of [0, 50, 100]) {
        const k = c.make(amount)
        k.snap()
        const [l, r] = render(k, new Float32Array(SR / 2))
        // Pan at "0" here is hard left; volume 0 and all effects at any setting must stay silent.
        expect(peak(l), `${c.name} ${amount}`).toBe(0)
        expect(peak(r), `${c.name} ${amount}`).toBe(0)
      }
    })

    it(`${c.name}: never emits NaN or Inf at extreme settings and inputs`, () => {
      for (const [label, x] of Object.entries(EXTREME_INPUTS)) {
        for (const amount of [0, 100, 1e9, -1e9]) {
          const k = c.make(Math.min(100, Math.max(0, amount)))
          ;(c.set as (k: unknown, a: number) => void)(k, amount)
          ;(c.set as (k: unknown, a: number) => void)(k, Number.NaN)
          ;(c.set as (k: unknown, a: number) => void)(k, Number.POSITIVE_INFINITY)
          const [l, r] = render(k, x)
          expect(allFinite(l, r), `${c.name} ${label} amount ${amount}`).toBe(true)
        }
      }
    })

    it(`${c.name}: a control jump makes no step larger than the bound`, () => {
      // A -6 dBFS tone, the jump landing on its crest. Applied without smoothing the jump would
      // step the output by up to ~0.5 (fader, pan, bypass crossfades). The bound: the largest step
      // the effect shows at either steady setting, plus 0.01.
      const x = sine(SR, c.freq, 0.5)
      const jumpAt = SR / 2 + Math.round(SR / (4 * c.freq))
      const steadyStep = (amount: number) => {
        const k = c.make(amount)
        k.snap()
        const [l, r] = render(k, x)
        return Math.max(maxStep(l, SR / 4, SR), maxStep(r, SR / 4, SR))
      }
      for (const [from, to] of [
        [c.low, c.high],
        [c.high, c.low],
      ] as const) {
        const k = c.make(from)
        k.snap()
        const [hl, hr] = render(k, x.subarray(0, jumpAt))
        ;(c.set as (k: unknown, a: number) => void)(k, to)
        const [tl, tr] = render(k, x.subarray(jumpAt))
        // Include the last sample before the jump: the first step is the one a click would show.
        const l = Float32Array.of(hl[jumpAt - 1]!, ...tl)
        const r = Float32Array.of(hr[jumpAt - 1]!, ...tr)
        const bound = Math.max(steadyStep(from), steadyStep(to)) + 0.01
        expect(Math.max(maxStep(l, 0, SR / 4), maxStep(r, 0, SR / 4)), `${c.name} ${from}→${to}`).toBeLessThan(bound)
      }
    })
  }

  it('the full strip: silence stays exactly silent, extreme automation stays finite', () => {
    const strip = new WasmChannelStrip(stripModule(), SR)
    STRIP_PARAM_NAMES.forEach((n) => strip.set(n, n === 'pan' ? 50 : 100))
    strip.snap()
    const l = new Float32Array(128)
    const r = new Float32Array(128)
    for (let b = 0; b < 400; b++) {
      strip.processInPlace(l, r, 128)
      expect(peak(l) + peak(r)).toBe(0)
    }
    const x = noise(128 * 2000, 10)
    for (let b = 0; b < 2000; b++) {
      // A new random value on every control every block, including out-of-range ones.
      STRIP_PARAM_NAMES.forEach((n, i) => strip.set(n, ((b * 7919 + i * 104729) % 301) - 100))
      l.set(x.subarray(b * 128, b * 128 + 128))
      r.set(x.subarray(b * 128, b * 128 + 128))
      strip.processInPlace(l, r, 128)
      expect(allFinite(l, r)).toBe(true)
    }
  })
})

describe('the full strip switching an effect on and off', () => {
  // Stages at 0 are skipped entirely, so switching one on starts it from reset state: the
  // crossfade must still be click-free (this is the path a mixer slider leaving 0 takes).
  const EFFECTS = ['lowpass', 'highpass', 'distortion', 'compression', 'chorus', 'delay', 'reverb'] as const
  const x = sine(SR, 50, 0.5)
  const jumpAt = SR / 2 + SR / 200 // a crest of the 50 Hz tone

  function run(
    settings: Partial<Record<(typeof STRIP_PARAM_NAMES)[number], number>>,
    change?: [string, number],
  ): [Float32Array, Float32Array] {
    const strip = new WasmChannelStrip(stripModule(), SR)
    const values = {
      volume: 100,
      pan: 0,
      enabled: 1,
      reverb: 0,
      lowpass: 0,
      highpass: 0,
      distortion: 0,
      delay: 0,
      compression: 0,
      chorus: 0,
      ...settings,
    }
    STRIP_PARAM_NAMES.forEach((n) => strip.set(n, values[n]))
    strip.snap()
    const outL = new Float32Array(x.length)
    const outR = new Float32Array(x.length)
    const l = new Float32Array(128)
    const r = new Float32Array(128)
    for (let start = 0; start < x.length; start += 128) {
      if (change && start === Math.floor(jumpAt / 128) * 128) strip.set(change[0] as never, change[1])
      const n = Math.min(128, x.length - start)
      l.set(x.subarray(start, start + n))
      r.set(x.subarray(start, start + n))
      strip.processInPlace(l, r, n)
      outL.set(l.subarray(0, n), start)
      outR.set(r.subarray(0, n), start)
    }
    return [outL, outR]
  }

  for (const effect of EFFECTS) {
    it(`${effect}: 0 → 100 → 0 without a click`, () => {
      const [sl, sr] = run({ [effect]: 100 })
      const bound = Math.max(maxStep(sl, SR / 4, SR), maxStep(sr, SR / 4, SR), maxStep(x, 0, SR)) + 0.01
      const [onL, onR] = run({}, [effect, 100])
      const j = Math.floor(jumpAt / 128) * 128
      expect(Math.max(maxStep(onL, j - 1, x.length), maxStep(onR, j - 1, x.length)), `${effect} on`).toBeLessThan(bound)
      const [offL, offR] = run({ [effect]: 100 }, [effect, 0])
      expect(Math.max(maxStep(offL, j - 1, x.length), maxStep(offR, j - 1, x.length)), `${effect} off`).toBeLessThan(bound)
    })
  }
})

describe('denormal safety', () => {
  // After a loud burst, decaying tails must end in exact zeros, never in float32 subnormals
  // (|x| < 1.18e-38), which are slow on x86 and keep the tail from ever being silent.
  const SUBNORMAL = 1.1754943508222875e-38
  const burstThenSilence = new Float32Array(SR * 12)
  burstThenSilence.set(noise(SR / 2, 1, 77))

  for (const c of CASES) {
    it(`${c.name}: no subnormal output while its tail decays`, () => {
      const k = c.make(100)
      k.snap()
      const [l, r] = render(k, burstThenSilence)
      let subnormals = 0
      for (const x of [l, r]) for (let i = 0; i < x.length; i++) if (x[i] !== 0 && Math.abs(x[i]!) < SUBNORMAL) subnormals++
      expect(subnormals).toBe(0)
      if (c.name !== 'delay' && c.name !== 'reverb') {
        // Everything but the long tails (feedback delay; reverb, whose exact end is checked in
        // stability.test.ts) has rung out completely within 11.5 s.
        expect(peak(l, l.length - SR / 2) + peak(r, r.length - SR / 2), c.name).toBe(0)
      }
    })
  }
})
