import { describe, expect, it } from 'vitest'
import { BiquadKernel, BUTTERWORTH_Q, cutoffForAmount, LOWPASS_RANGE_HZ, HIGHPASS_RANGE_HZ } from './biquad.ts'
import { amplitudeAt, biquadMagnitude, cookbook, db, render, sine, SR } from './test-signals.ts'

const PROBES = [60, 250, 1000, 2500, 6000, 12000]

function measuredGainDb(kernel: BiquadKernel, freq: number): number {
  const x = sine(SR / 2, freq, 0.5)
  const [y] = render(kernel, x)
  // Skip the first 0.25 s (transient), measure over exactly 0.25 s (integer cycles at integer Hz... close enough with 12000 samples).
  const n = 12000
  return db(amplitudeAt(y, freq, x.length - n, n) / amplitudeAt(x, freq, x.length - n, n))
}

describe('RBJ biquad kernel', () => {
  for (const mode of ['lowpass', 'highpass'] as const) {
    for (const cutoff of [200, 1000, 5000]) {
      it(`${mode} at ${cutoff} Hz matches the analytic RBJ response within ±0.5 dB`, () => {
        const analytic = cookbook(mode, cutoff, BUTTERWORTH_Q)
        for (const f of PROBES) {
          const k = new BiquadKernel(SR, mode)
          k.setCutoff(cutoff)
          k.snap()
          const expected = db(biquadMagnitude(analytic, f))
          if (expected < -60) continue // below the measurement's noise floor
          expect(Math.abs(measuredGainDb(k, f) - expected), `${mode} ${cutoff} Hz @ ${f} Hz`).toBeLessThan(0.5)
        }
      })
    }
  }

  it('maps amount 0–100 logarithmically onto cutoff', () => {
    expect(cutoffForAmount('lowpass', 0)).toBeCloseTo(LOWPASS_RANGE_HZ.from)
    expect(cutoffForAmount('lowpass', 100)).toBeCloseTo(LOWPASS_RANGE_HZ.to)
    expect(cutoffForAmount('highpass', 100)).toBeCloseTo(HIGHPASS_RANGE_HZ.to)
    // Log mapping: the midpoint is the geometric mean of the ends.
    expect(cutoffForAmount('lowpass', 50)).toBeCloseTo(Math.sqrt(LOWPASS_RANGE_HZ.from * LOWPASS_RANGE_HZ.to), 6)
    expect(cutoffForAmount('highpass', 25) / cutoffForAmount('highpass', 0)).toBeCloseTo(
      cutoffForAmount('highpass', 50) / cutoffForAmount('highpass', 25),
      6,
    )
  })

  it('amount 50 on the lowpass gives the analytic response at its mapped cutoff', () => {
    const k = new BiquadKernel(SR, 'lowpass', 50)
    k.snap()
    const analytic = cookbook('lowpass', cutoffForAmount('lowpass', 50), BUTTERWORTH_Q)
    for (const f of [250, 1000, 4000]) expect(Math.abs(measuredGainDb(k, f) - db(biquadMagnitude(analytic, f)))).toBeLessThan(0.5)
  })

  it('amount 0 is an exact bypass and is skippable', () => {
    const k = new BiquadKernel(SR, 'highpass', 0)
    expect(k.active).toBe(false)
    const x = sine(4800, 440, 0.7)
    const [y] = render(k, x)
    expect(Array.from(y)).toEqual(Array.from(x))
  })
})
