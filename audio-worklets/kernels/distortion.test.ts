import { describe, expect, it } from 'vitest'
import { DistortionKernel } from './distortion.ts'
import { amplitudeAt, db, render, rms, sine, SR } from './test-signals.ts'

/** Measures over exactly one second, so integer-Hz components fall on exact DFT bins. */
const SETTLE = 4800
function run(amount: number, freq: number, amp: number, oversample: 1 | 2 = 2): Float32Array {
  const k = new DistortionKernel(SR, amount, { oversample })
  k.snap()
  const [y] = render(k, sine(SETTLE + SR, freq, amp))
  return y.subarray(SETTLE)
}

function harmonicPower(y: Float32Array, f0: number): { fundamental: number; harmonics: number; total: number } {
  let harmonics = 0
  for (let k = 2; k * f0 < SR / 2; k++) harmonics += amplitudeAt(y, k * f0, 0, SR) ** 2 / 2
  const fundamental = amplitudeAt(y, f0, 0, SR) ** 2 / 2
  return { fundamental, harmonics, total: rms(y) ** 2 }
}

describe('oversampled waveshaping distortion', () => {
  it('harmonic content rises with drive', () => {
    let previous = -Infinity
    for (const amount of [10, 30, 60, 100]) {
      const { fundamental, harmonics } = harmonicPower(run(amount, 1000, 0.5), 1000)
      const thdDb = 10 * Math.log10(harmonics / fundamental)
      expect(thdDb, `amount ${amount}`).toBeGreaterThan(previous + 1)
      previous = thdDb
    }
    expect(previous).toBeGreaterThan(-15) // heavily driven: strong harmonics
  })

  it('2x oversampling measurably lowers aliasing compared with the same shaper at 1x', () => {
    // 4.9 kHz driven hard: harmonics above 24 kHz fold back to inharmonic frequencies at 1x.
    const improvementDb = (f0: number, amount: number) => {
      const alias = (y: Float32Array) => {
        const p = harmonicPower(y, f0)
        return p.total - p.fundamental - p.harmonics // everything not on a harmonic is aliasing
      }
      return 10 * Math.log10(alias(run(amount, f0, 0.5, 1)) / alias(run(amount, f0, 0.5, 2)))
    }
    // Moderate drive on a high note: most folded energy comes from the first harmonics above
    // Nyquist, which the halfband removes.
    expect(improvementDb(7100, 40)).toBeGreaterThan(25)
    expect(improvementDb(2900, 60)).toBeGreaterThan(12)
    // Hard drive: harmonics beyond 48 kHz still fold at 2x, so the gain is smaller, yet clear.
    expect(improvementDb(4900, 80)).toBeGreaterThan(6)
  })

  it('compensates output level: a -12 dBFS sine stays within ±6 dB at every drive', () => {
    const x = sine(SR, 440, 0.25)
    for (const amount of [1, 25, 50, 75, 100]) {
      const y = run(amount, 440, 0.25)
      expect(Math.abs(db(rms(y) / rms(x, 0, SR))), `amount ${amount}`).toBeLessThan(6)
    }
  })
})
