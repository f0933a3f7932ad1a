import { describe, expect, it } from 'vitest'
import { attackPositions, pitchShift, timeStretch } from './time-stretch.ts'
import { clickTrack, onsets, sine, zeroCrossingHz } from '../audio-worklets/kernels/test-signals.ts'

const SR = 44100

/** Strongest frequency by DFT scan with 0.1 Hz steps around a guess. */
function peakNear(x: Float32Array, sampleRate: number, guess: number, span: number): number {
  let best = guess,
    bestPower = -1
  const n = Math.min(x.length, 16384)
  const off = Math.floor((x.length - n) / 2)
  for (let f = guess - span; f <= guess + span; f += 0.5) {
    let re = 0,
      im = 0
    const w = (2 * Math.PI * f) / sampleRate
    for (let i = 0; i < n; i += 1) {
      const h = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n)
      re += h * x[off + i]! * Math.cos(w * i)
      im += h * x[off + i]! * Math.sin(w * i)
    }
    const p = re * re + im * im
    if (p > bestPower) {
      bestPower = p
      best = f
    }
  }
  return best
}

describe('WSOLA time-stretch', () => {
  for (const stretch of [0.8, 1.25]) {
    it(`a 1 kHz sine stretched ${stretch}x keeps 1 kHz (±2 Hz) and lasts ${stretch}x (±10 ms)`, () => {
      const input = sine(2 * SR, 1000, 0.5, SR)
      const out = timeStretch(input, stretch, SR)
      const expectedS = 2 * stretch
      expect(Math.abs(out.length / SR - expectedS)).toBeLessThan(0.01)
      const hz = zeroCrossingHz(out, SR)
      expect(Math.abs(hz - 1000)).toBeLessThan(2)
      // And the tone is steady: RMS of the middle within 1 dB of the input's (no beating holes).
      let e = 0
      const a = Math.floor(out.length * 0.2),
        b = Math.floor(out.length * 0.8)
      for (let i = a; i < b; i++) e += out[i]! ** 2
      const rmsDb = 10 * Math.log10(e / (b - a) / 0.125)
      expect(Math.abs(rmsDb)).toBeLessThan(1)
    })
    it(`a click track stretched ${stretch}x keeps its onsets within ±5 ms of the stretched grid`, () => {
      const interval = 0.5
      const input = clickTrack(4, interval, SR)
      const out = timeStretch(input, stretch, SR)
      const expected = onsets(input, 0.3, SR).map((t) => t * stretch)
      const got = onsets(out, 0.3, SR, 0.2)
      expect(got.length).toBe(expected.length)
      const worst = Math.max(...expected.map((t, i) => Math.abs(got[i]! - t)))
      expect(worst).toBeLessThan(0.005)
    })
  }
})

describe('attacks (kept in place by the stretch)', () => {
  it('finds each click of a click track within 2 ms, and nothing in a steady tone after its start', () => {
    const clicks = attackPositions(clickTrack(4, 0.5, SR), SR)
    const truth = onsets(clickTrack(4, 0.5, SR), 0.3, SR)
    expect(clicks).toHaveLength(truth.length)
    clicks.forEach((c, i) => expect(Math.abs(c / SR - truth[i]!)).toBeLessThan(0.002))
    expect(attackPositions(sine(2 * SR, 440, 0.5, SR), SR)).toEqual([0])
    // A click on top of a steady chord is still an attack.
    const mixed = sine(2 * SR, 220, 0.2, SR)
    for (let i = 0; i < 200; i++) mixed[SR + i]! += Math.exp(-i / 40) * (i % 2 === 0 ? 1 : -1)
    expect(attackPositions(mixed, SR).map((a) => Math.round((a / SR) * 1000))).toEqual([0, 1000])
  })
})

describe('pitch shift (Harmonize voices)', () => {
  it('440 Hz in A major: the third (+4) and fifth (+7) voices peak within ±1 % of 554.37 and 659.26 Hz', () => {
    const input = sine(SR, 440, 0.5, SR)
    for (const [semi, hz] of [
      [4, 554.37],
      [7, 659.26],
    ] as const) {
      const out = pitchShift(input, semi, SR)
      expect(out.length).toBe(input.length)
      const peak = peakNear(out, SR, hz, 15)
      expect(Math.abs(peak - hz) / hz).toBeLessThan(0.01)
      expect(Math.abs(zeroCrossingHz(out, SR) - hz) / hz).toBeLessThan(0.01)
    }
  })
})
