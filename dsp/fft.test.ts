import { describe, expect, it } from 'vitest'
import { fft } from './fft.ts'

// The tests read spectra through this FFT (instruments, lead voices, time-stretch side by side): a
// wrong bin or scale there would pass or fail them for the wrong reason.

describe('fft', () => {
  it('puts a cosine of k cycles in bins k and N − k with magnitude N/2, and nothing elsewhere', () => {
    const n = 1024
    const k = 37
    const re = new Float64Array(n).map((_, i) => Math.cos((2 * Math.PI * k * i) / n))
    const im = new Float64Array(n)
    fft(re, im)
    const mag = (b: number) => Math.hypot(re[b]!, im[b]!)
    expect(mag(k)).toBeCloseTo(n / 2, 6)
    expect(mag(n - k)).toBeCloseTo(n / 2, 6)
    for (let b = 0; b < n; b++) if (b !== k && b !== n - k) expect(mag(b)).toBeLessThan(1e-9)
  })

  it('keeps the energy (Parseval) of noise and matches a direct DFT bin', () => {
    const n = 256
    let seed = 7
    const x = Float64Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1)
    const re = Float64Array.from(x)
    const im = new Float64Array(n)
    fft(re, im)
    const timeEnergy = x.reduce((s, v) => s + v * v, 0)
    const freqEnergy = re.reduce((s, v, i) => s + v * v + im[i]! * im[i]!, 0) / n
    expect(freqEnergy).toBeCloseTo(timeEnergy, 8)
    const bin = 19
    let dr = 0
    let di = 0
    for (let t = 0; t < n; t++) {
      dr += x[t]! * Math.cos((-2 * Math.PI * bin * t) / n)
      di += x[t]! * Math.sin((-2 * Math.PI * bin * t) / n)
    }
    expect(re[bin]).toBeCloseTo(dr, 9)
    expect(im[bin]).toBeCloseTo(di, 9)
  })
})
