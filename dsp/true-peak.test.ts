// True peak against EBU Tech 3341 (V4) cases 15–18: sines at fs/4, fs/6 and fs/8 whose true peak
// is −6 dBFS, phased so the samples fall beside the crest. Tech 3341 allows +0.2/−0.4 dB.
import { describe, expect, it } from 'vitest'
import { truePeakDbtp } from './true-peak.ts'

const SR = 48000

/** A sine at `sampleRate / divisor` with peak −6 dBFS, the first sample `phaseDeg` into the cycle. */
function phasedSine(divisor: number, phaseDeg: number, seconds = 1): Float32Array {
  const a = 10 ** (-6 / 20)
  const out = new Float32Array(SR * seconds)
  for (let i = 0; i < out.length; i++) out[i] = a * Math.sin((2 * Math.PI * i) / divisor + (phaseDeg * Math.PI) / 180)
  return out
}

const samplePeakDb = (x: Float32Array) => 20 * Math.log10(x.reduce((m, v) => Math.max(m, Math.abs(v)), 0))

describe('true peak (EBU Tech 3341 cases 15–18)', () => {
  const cases: [string, number, number][] = [
    ['15: fs/4, 0°', 4, 0],
    ['16: fs/4, 45°', 4, 45],
    ['17: fs/6, 60°', 6, 60],
    ['18: fs/8, 67.5°', 8, 67.5],
  ]
  for (const [name, divisor, phase] of cases)
    it(`case ${name} reads −6.0 dBTP (+0.2/−0.4)`, () => {
      const x = phasedSine(divisor, phase)
      const tp = truePeakDbtp([x, x])
      expect(tp).toBeGreaterThanOrEqual(-6.4)
      expect(tp).toBeLessThanOrEqual(-5.8)
    })

  it('finds what the sample peak misses: fs/4 at 45° has samples 3 dB below the crest', () => {
    const x = phasedSine(4, 45)
    expect(samplePeakDb(x)).toBeCloseTo(-9.02, 1)
    expect(truePeakDbtp([x]) - samplePeakDb(x)).toBeGreaterThan(2.6)
  })

  it('reads the loudest channel, and a low-frequency sine at its sample peak', () => {
    const quiet = phasedSine(4, 45).map((v) => v * 0.1)
    const n = SR
    const low = new Float32Array(n)
    for (let i = 0; i < n; i++) low[i] = 0.5 * Math.sin((2 * Math.PI * 997 * i) / SR)
    expect(truePeakDbtp([quiet, low])).toBeCloseTo(20 * Math.log10(0.5), 1)
  })

  it('catches an inter-sample peak anywhere in a long signal (not only where the sample peak is)', () => {
    const n = SR * 10
    const x = new Float32Array(n)
    for (let i = 0; i < n; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * 440 * i) / SR)
    // Samples +a, +a at 0.7 s: a band-limited reconstruction rises well above them between the two.
    const at = Math.round(0.7 * SR)
    x.set([0.9, -0.9, 0.9, 0.9, -0.9, 0.9], at)
    expect(truePeakDbtp([x])).toBeGreaterThan(20 * Math.log10(0.9) + 0.5)
  })

  it('gives −Infinity for digital silence', () => {
    expect(truePeakDbtp([new Float32Array(1000)])).toBe(-Infinity)
  })
})
