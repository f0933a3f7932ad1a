// Integrated loudness against EBU Tech 3341 (V4), whose test signals are built here sample by
// sample: the expected values and tolerances are the ones Tech 3341 publishes for each case.
import { describe, expect, it } from 'vitest'
import { kWeighting } from './k-weighting.ts'
import { integratedLoudness } from './loudness.ts'

/** 1 kHz sine whose peak sits `dbfs` below full scale, for `seconds`. */
function tone(dbfs: number, seconds: number, sampleRate: number, phase = 0): Float32Array {
  const n = Math.round(seconds * sampleRate)
  const a = 10 ** (dbfs / 20)
  const out = new Float32Array(n)
  for (let i = 0; i < n; i++) out[i] = a * Math.sin((2 * Math.PI * 1000 * i) / sampleRate + phase)
  return out
}

/** A stereo sequence of 1 kHz tones [dBFS, seconds], both channels alike, as Tech 3341's cases 3–5. */
function sequence(parts: [number, number][], sampleRate = 48000): Float32Array[] {
  const pieces = parts.map(([db, s]) => tone(db, s, sampleRate))
  const out = new Float32Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.length
  }
  return [out, out]
}

describe('K-weighting', () => {
  it('reproduces the coefficients BS.1770-4 tabulates for 48 kHz', () => {
    const { shelf, highPass } = kWeighting(48000)
    const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-8)
    close(shelf.b0, 1.53512485958697)
    close(shelf.b1, -2.69169618940638)
    close(shelf.b2, 1.19839281085285)
    close(shelf.a1, -1.69065929318241)
    close(shelf.a2, 0.73248077421585)
    expect([highPass.b0, highPass.b1, highPass.b2]).toEqual([1, -2, 1])
    close(highPass.a1, -1.99004745483398)
    close(highPass.a2, 0.99007225036621)
  })
})

describe('integrated loudness (EBU Tech 3341)', () => {
  it('case 1: a stereo 1 kHz sine at −23 dBFS reads −23.0 ±0.1 LUFS', () => {
    expect(integratedLoudness(sequence([[-23, 20]]), 48000)).toBeCloseTo(-23, 1)
  })

  it('case 2: a stereo 1 kHz sine at −33 dBFS reads −33.0 ±0.1 LUFS', () => {
    expect(integratedLoudness(sequence([[-33, 20]]), 48000)).toBeCloseTo(-33, 1)
  })

  it('case 3: −36/−23/−36 dBFS for 10/60/10 s reads −23.0 ±0.1 (the relative gate drops the quiet parts)', () => {
    const lufs = integratedLoudness(
      sequence([
        [-36, 10],
        [-23, 60],
        [-36, 10],
      ]),
      48000,
    )
    expect(Math.abs(lufs + 23)).toBeLessThanOrEqual(0.1)
  })

  it('case 4: −72/−36/−23/−36/−72 dBFS for 10/10/60/10/10 s reads −23.0 ±0.1 (both gates)', () => {
    const lufs = integratedLoudness(
      sequence([
        [-72, 10],
        [-36, 10],
        [-23, 60],
        [-36, 10],
        [-72, 10],
      ]),
      48000,
    )
    expect(Math.abs(lufs + 23)).toBeLessThanOrEqual(0.1)
  })

  it('case 5: −26/−20/−26 dBFS for 20/20.1/20 s reads −23.0 ±0.1 (nothing gated, energies averaged)', () => {
    const lufs = integratedLoudness(
      sequence([
        [-26, 20],
        [-20, 20.1],
        [-26, 20],
      ]),
      48000,
    )
    expect(Math.abs(lufs + 23)).toBeLessThanOrEqual(0.1)
  })

  it('case 6: five channels (L, R −28; C −24; Ls, Rs −30 dBFS) read −23.0 ±0.1 with the surround weights', () => {
    const s = (db: number) => tone(db, 20, 48000)
    const lufs = integratedLoudness([s(-28), s(-28), s(-24), s(-30), s(-30)], 48000, [1, 1, 1, 1.41, 1.41])
    expect(Math.abs(lufs + 23)).toBeLessThanOrEqual(0.1)
  })

  it('weights the filters for the real sample rate: case 1 at 44.1 kHz still reads −23.0 ±0.1', () => {
    expect(integratedLoudness(sequence([[-23, 20]], 44100), 44100)).toBeCloseTo(-23, 1)
  })

  it('follows level changes: a 1 kHz sine 10 dB quieter reads 10 LU less', () => {
    const loud = integratedLoudness(sequence([[-10, 5]], 44100), 44100)
    const quiet = integratedLoudness(sequence([[-20, 5]], 44100), 44100)
    expect(loud - quiet).toBeCloseTo(10, 2)
  })

  it('weights frequencies: a 100 Hz tone reads below and a 4 kHz tone above a 1 kHz tone of the same level', () => {
    const at = (f: number) => {
      const n = 48000 * 5
      const x = new Float32Array(n)
      for (let i = 0; i < n; i++) x[i] = 0.1 * Math.sin((2 * Math.PI * f * i) / 48000)
      return integratedLoudness([x, x], 48000)
    }
    const k1 = at(1000)
    // The K-curve relative to 1 kHz: the 38 Hz high-pass (Q 0.5) takes −1.2 dB at 100 Hz and the shelf
    // already adds +0.7 dB at 1 kHz, so about −1.9 dB; the shelf's +4 dB is mostly there at 4 kHz.
    expect(at(100) - k1).toBeLessThan(-1.5)
    expect(at(100) - k1).toBeGreaterThan(-2.2)
    expect(at(4000) - k1).toBeGreaterThan(2)
    expect(at(4000) - k1).toBeLessThan(3.5)
  })

  it('gates silence out: silence and a tone at −80 dBFS give −Infinity, a file shorter than one block too', () => {
    expect(integratedLoudness([new Float32Array(48000 * 3)], 48000)).toBe(-Infinity)
    expect(integratedLoudness(sequence([[-80, 3]]), 48000)).toBe(-Infinity)
    expect(integratedLoudness(sequence([[-20, 0.3]]), 48000)).toBe(-Infinity)
  })
})
