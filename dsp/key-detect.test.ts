import { describe, expect, it } from 'vitest'
import { detectKey, harmonyIntervals } from './key-detect.ts'

const SR = 16000

/** Chords of a progression, each 0.5 s, three partials per note. */
function progression(chords: number[][]): Float32Array {
  const len = Math.round(0.5 * SR)
  const out = new Float32Array(len * chords.length)
  chords.forEach((notes, c) => {
    for (const midi of notes) {
      const f = 440 * 2 ** ((midi - 69) / 12)
      for (let i = 0; i < len; i++) {
        const ph = (2 * Math.PI * f * i) / SR
        out[c * len + i]! += 0.1 * Math.exp(-i / (0.4 * SR)) * (Math.sin(ph) + 0.5 * Math.sin(2 * ph) + 0.25 * Math.sin(3 * ph))
      }
    }
  })
  return out
}

describe('key detection (chroma + key profiles)', () => {
  it('i–iv–v–i in A minor → "A minor"; I–IV–V–I in E♭ major → "D# major"; in G major → "G major"', () => {
    expect(
      detectKey(
        progression([
          [57, 60, 64],
          [62, 65, 69],
          [64, 67, 71],
          [57, 60, 64],
          [45, 57, 60, 64],
        ]),
        SR,
      ).name,
    ).toBe('A minor')
    expect(
      detectKey(
        progression([
          [63, 67, 70],
          [68, 72, 75],
          [70, 74, 77],
          [63, 67, 70],
          [51, 63, 67, 70],
        ]),
        SR,
      ).name,
    ).toBe('D# major')
    expect(
      detectKey(
        progression([
          [55, 59, 62],
          [60, 64, 67],
          [62, 66, 69],
          [55, 59, 62],
          [43, 55, 59, 62],
        ]),
        SR,
      ).name,
    ).toBe('G major')
  })
  it('Harmonize intervals: A in A major gets a major third (+4) and fifth (+7); B in A major a minor third (+3)', () => {
    expect(harmonyIntervals(69, 9, 'major')).toEqual({ third: 4, fifth: 7 })
    expect(harmonyIntervals(71, 9, 'major')).toEqual({ third: 3, fifth: 7 })
    expect(harmonyIntervals(69, 9, 'minor')).toEqual({ third: 3, fifth: 7 })
  })
})
