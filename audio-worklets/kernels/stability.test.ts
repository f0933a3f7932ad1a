import { describe, expect, it } from 'vitest'
import { ChorusKernel } from './chorus.ts'
import { ReverbKernel } from './reverb.ts'
import { allFinite, noise, peak, render, rms, SR } from './test-signals.ts'

/** 60 s of full-scale noise, then 20 s of silence. */
function noiseThenSilence(): Float32Array {
  const x = new Float32Array(80 * SR)
  x.set(noise(60 * SR, 1, 99))
  return x
}

describe('chorus and reverb over long inputs', () => {
  const input = noiseThenSilence()
  const inputR = new Float32Array(input.length)
  inputR.set(noise(60 * SR, 1, 7))
  const stop = 60 * SR

  it('reverb at 100 stays bounded for 60 s of noise and leaves a decaying tail that ends in exact silence', () => {
    const k = new ReverbKernel(SR, 100)
    k.snap()
    const [l, r] = render(k, input, inputR)
    expect(allFinite(l, r)).toBe(true)
    // Bounded: no build-up over a minute (compare the last second with the first).
    expect(rms(l, stop - SR, stop) / rms(l, SR, 2 * SR)).toBeLessThan(1.1)
    expect(peak(l, 0, stop)).toBeLessThan(4)
    // A real tail right after the input stops…
    const tail0 = rms(l, stop, stop + SR / 10)
    expect(tail0).toBeGreaterThan(0.01)
    // …that decays roughly at the designed RT60 (2.2 s → -60 dB): 1 s later at least 20 dB down…
    expect(rms(l, stop + SR, stop + SR + SR / 10) / tail0).toBeLessThan(0.1)
    // …keeps decaying…
    expect(rms(r, stop + 3 * SR, stop + 3 * SR + SR / 10)).toBeLessThan(rms(r, stop + 2 * SR, stop + 2 * SR + SR / 10))
    // …and ends in exact zeros, not subnormal residue.
    expect(peak(l, input.length - SR, input.length)).toBe(0)
    expect(peak(r, input.length - SR, input.length)).toBe(0)
  })

  it('chorus at 100 stays bounded for 60 s of noise and its short tail ends in exact silence', () => {
    const k = new ChorusKernel(SR, 100)
    k.snap()
    const [l, r] = render(k, input, inputR)
    expect(allFinite(l, r)).toBe(true)
    expect(peak(l, 0, stop)).toBeLessThanOrEqual(1.0001)
    expect(rms(l, stop - SR, stop) / rms(l, SR, 2 * SR)).toBeLessThan(1.1)
    // The delayed (wet) signal rings on for up to 16 ms after the input stops, then nothing.
    expect(rms(l, stop, stop + 480)).toBeGreaterThan(0.01)
    expect(peak(l, stop + 1000, input.length)).toBe(0)
    expect(peak(r, stop + 1000, input.length)).toBe(0)
  })

  it('chorus modulates: left and right differ and the wet delay moves', () => {
    const k = new ChorusKernel(SR, 100)
    k.snap()
    const x = noise(2 * SR, 0.5, 3)
    const [l, r] = render(k, x, x)
    expect(rms(Float32Array.from(l, (v, i) => v - r[i]!))).toBeGreaterThan(0.01)
  })
})
