import { describe, expect, it } from 'vitest'
import { noise, sine, SR } from '../audio-worklets/kernels/test-signals.ts'
import { locateCapture } from './stream-align.ts'

/** A deterministic stand-in for music: a few partials with a moving envelope, plus some noise. */
function music(seconds: number, seed = 1): Float32Array {
  const out = noise(Math.round(seconds * SR), 0.05, seed)
  for (let i = 0; i < out.length; i++) {
    const t = i / SR
    const env = 0.6 + 0.4 * Math.sin(2 * Math.PI * 1.7 * t)
    out[i]! += 0.3 * env * Math.sin(2 * Math.PI * 110 * t) + 0.15 * Math.sin(2 * Math.PI * (440 + 30 * Math.sin(2 * Math.PI * 0.5 * t)) * t)
  }
  return out
}

describe('locateCapture: a moment of a playing stream, found in its decoded file', () => {
  const reference = music(6)

  it('finds the exact frame when the stream clock is 31 ms off', () => {
    const at = 123_457
    const capture = reference.slice(at, at + 8192)
    const found = locateCapture(capture, reference, at + 1500, 4800)
    expect(found?.frame).toBe(at)
    expect(found!.score).toBeGreaterThan(0.999)
  })

  it('finds it on either side of the estimate, and at every phase of the 4x coarse search', () => {
    for (const [at, off] of [
      [50_001, -4000],
      [200_002, 3999],
      [77_003, 17],
      [150_000, 0],
    ] as const) {
      const found = locateCapture(reference.slice(at, at + 8192), reference, at + off, 4800)
      expect(found?.frame, `capture at ${at}, estimate ${off} frames off`).toBe(at)
    }
  })

  it('still exact when the stream is not bit-identical (another resampler: noise 40 dB down)', () => {
    const at = 180_000
    const hiss = noise(8192, 0.001, 7)
    const capture = reference.slice(at, at + 8192).map((v, i) => v + hiss[i]!)
    expect(locateCapture(capture, reference, at - 2000, 4800)?.frame).toBe(at)
  })

  it('finds a slow sweep, whose neighbouring periods look alike, because the same audio leaves nothing', () => {
    const sweep = new Float32Array(SR * 3).map((_, i) => 0.25 * Math.sin(2 * Math.PI * (300 * (i / SR) + 50 * (i / SR) ** 2)))
    expect(locateCapture(sweep.slice(60_000, 68_192), sweep, 61_000, 4800)?.frame).toBe(60_000)
  })

  it('finds a quiet, dull passage (a 64 kbps MP3 intro: little above 10 kHz, 30 dB down)', () => {
    const dull = new Float32Array(reference.length)
    for (let i = 1; i < dull.length; i++) dull[i] = 0.7 * dull[i - 1]! + 0.3 * reference[i]! * 0.03
    const found = locateCapture(dull.slice(90_000, 98_192), dull, 92_000, 4800)
    expect(found?.frame).toBe(90_000)
  })

  it('refuses what it cannot be sure of: silence, a held tone (every period matches), other audio, out of range', () => {
    expect(locateCapture(new Float32Array(8192), reference, 100_000, 4800)).toBeNull()
    const tone = sine(SR * 2, SR / 100, 0.25)
    expect(locateCapture(tone.slice(30_000, 30_000 + 8192), tone, 30_400, 4800)).toBeNull()
    const other = music(1, 99).slice(0, 8192)
    expect(locateCapture(other, reference, 100_000, 4800)).toBeNull()
    // Beyond the estimate's radius the true frame is not found, and nothing else passes for it.
    expect(locateCapture(reference.slice(100_000, 108_192), reference, 120_000, 4800)).toBeNull()
    expect(locateCapture(new Float32Array(100), reference, 0, 4800)).toBeNull()
  })
})
