import { describe, expect, it } from 'vitest'
import { measureSongLoudness } from './song-loudness.ts'

describe('measureSongLoudness', () => {
  const sine = (amp: number, seconds = 5, sr = 44100) => {
    const x = new Float32Array(seconds * sr)
    for (let i = 0; i < x.length; i++) x[i] = amp * Math.sin((2 * Math.PI * 1000 * i) / sr)
    return x
  }

  it('stores loudness and true peak to 0.01 dB', () => {
    const x = sine(10 ** (-23 / 20))
    const m = measureSongLoudness([x, x], 44100)
    expect(m.loudnessLufs).toBeCloseTo(-23, 1)
    expect(m.truePeakDbtp).toBeCloseTo(-23, 1)
    expect(Math.round(m.loudnessLufs! * 100)).toBe(m.loudnessLufs! * 100)
  })

  it('measures a mono file as the two equal channels it is played on', () => {
    const x = sine(10 ** (-23 / 20))
    expect(measureSongLoudness([x], 44100).loudnessLufs).toBeCloseTo(-23, 1)
  })

  it('gives nulls for silence', () => {
    expect(measureSongLoudness([new Float32Array(44100 * 2)], 44100)).toEqual({ loudnessLufs: null, truePeakDbtp: null })
    expect(measureSongLoudness([], 44100)).toEqual({ loudnessLufs: null, truePeakDbtp: null })
  })
})
