import { describe, expect, it } from 'vitest'
import { DelayShifter } from './delay-shifter.ts'
import { maxStep, noise, peakNear, powerSpectrum, rms, sine } from './test-signals.ts'

const SR = 44100

function shift(x: Float32Array, ratio: number, period: number, channels: 1 | 2 = 1, y?: Float32Array): [Float32Array, Float32Array] {
  const s = new DelayShifter(SR, channels)
  const a = new Float32Array(x.length),
    b = new Float32Array(x.length)
  for (let i = 0; i < x.length; i++) {
    a[i] = s.next(x[i]!, ratio, period, y?.[i] ?? 0)
    b[i] = s.right
  }
  return [a, b]
}

/** Highest over lowest RMS in dB over ~10 ms windows of x[from, to), each a whole number of periods of `hz`. */
function levelSwingDb(x: Float32Array, from: number, to: number, hz: number): number {
  const w = Math.round(Math.max(1, Math.round(0.01 * hz)) * (SR / hz))
  let lo = Infinity,
    hi = 0
  for (let i = from; i + w <= to; i += w) {
    const r = rms(x, i, i + w)
    lo = Math.min(lo, r)
    hi = Math.max(hi, r)
  }
  return 20 * Math.log10(hi / lo)
}

describe('delay-line pitch shifter (pitch-synchronous two taps)', () => {
  it('at ratio 1 is an exact copy delayed by `latency` samples', () => {
    const x = noise(SR / 2, 0.5, 3)
    const s = new DelayShifter(SR)
    const y = new Float32Array(x.length)
    for (let i = 0; i < x.length; i++) y[i] = s.next(x[i]!, 1, 0)
    const d = s.latency
    expect(Number.isInteger(d)).toBe(true)
    for (let i = d; i < x.length; i++) if (y[i] !== x[i - d]) throw new Error(`differs at ${i}`)
  })

  for (const semitones of [4, 7, -5, 12]) {
    it(
      `shifts a 440 Hz tone by ${semitones} semitones: peak within ±0.2 %, level steady within 0.1 dB, no step beyond ` + `the tone's own`,
      () => {
        const ratio = 2 ** (semitones / 12)
        const x = sine(SR, 440, 0.5, SR)
        const [y] = shift(x, ratio, SR / 440)
        const expected = 440 * ratio
        const got = peakNear(y, expected, expected * 0.03, 8192, 16384, SR)
        expect(Math.abs(got / expected - 1)).toBeLessThan(0.002)
        // The taps are a whole number of periods apart: the crossfades neither beat nor dip.
        expect(levelSwingDb(y, 4410, SR, expected)).toBeLessThan(0.1)
        const ideal = 0.5 * 2 * Math.sin((Math.PI * expected) / SR)
        expect(maxStep(y, 4410, SR)).toBeLessThan(1.05 * ideal)
      },
    )
  }

  it('without a period (unvoiced) a tone dips at the crossfades, which the period prevents (contrast: > 3 dB swing)', () => {
    const x = sine(SR, 440, 0.5, SR)
    const [y] = shift(x, 2 ** (4 / 12), 0)
    expect(levelSwingDb(y, 4410, SR, 440 * 2 ** (4 / 12))).toBeGreaterThan(3)
  })

  it('stereo: both channels share delays and gains (each equals a mono shifter on it, bit for bit)', () => {
    const l = sine(SR / 2, 330, 0.5, SR),
      r = noise(SR / 2, 0.3, 8)
    const [sl, sr] = shift(l, 1.1, SR / 330, 2, r)
    const [ml] = shift(l, 1.1, SR / 330)
    const [mr] = shift(r, 1.1, SR / 330)
    expect(Array.from(sl)).toEqual(Array.from(ml))
    expect(Array.from(sr)).toEqual(Array.from(mr))
  })

  it(
    'back at ratio 1 it settles onto one tap within 40 ms: noise comes out without comb notches (bands within ±1.5 dB of ' + 'the input)',
    () => {
      const x = noise(2 * SR, 0.5, 5)
      const s = new DelayShifter(SR)
      const y = new Float32Array(x.length)
      for (let i = 0; i < x.length; i++) y[i] = s.next(x[i]!, i < 0.5 * SR + 123 ? 1.12 : 1, SR / 220)
      const from = Math.round(0.6 * SR),
        n = 32768
      const px = powerSpectrum(x, from, n),
        py = powerSpectrum(y, from, n)
      let worst = 0
      // 100 Hz bands from 100 Hz to 5 kHz (two taps 15 ms apart would notch every ~67 Hz).
      for (let f = 100; f < 5000; f += 100) {
        let ex = 0,
          ey = 0
        for (let k = Math.round((f * n) / SR); k < Math.round(((f + 100) * n) / SR); k++) {
          ex += px[k]!
          ey += py[k]!
        }
        worst = Math.max(worst, Math.abs(10 * Math.log10(ey / ex)))
      }
      expect(worst).toBeLessThan(1.5)
    },
  )
})
