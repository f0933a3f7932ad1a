import { describe, expect, it } from 'vitest'
import { analyseRemixSource, RemixInputError } from './remix-analysis.ts'
import { compose } from './composer/index.ts'
import { renderScore } from './composer-test-render.ts'

describe('remix source analysis', () => {
  it('bad input gets a clear message: 1 s, silence, 20 minutes', () => {
    const sr = 8000
    expect(() => analyseRemixSource([new Float32Array(sr).fill(0.1)], sr)).toThrow(/too short to remix \(1\.0 s/)
    expect(() => analyseRemixSource([new Float32Array(30 * sr)], sr)).toThrow(/silent/)
    expect(() => analyseRemixSource([new Float32Array(20 * 60 * sr).fill(0.1)], sr)).toThrow(/too long to remix \(20 min/)
    expect(() => analyseRemixSource([new Float32Array(sr)], sr)).toThrow(RemixInputError)
  })

  it('a composer piece: tempo within ±1 BPM, beats on its grid, a pitch track', () => {
    const score = compose({ description: 'analysis check', genre: 'pop', mood: 'happy', minDurationSeconds: 24 })
    const sr = 16000
    const x = renderScore(score, 24, sr)
    const a = analyseRemixSource([x, x], sr)
    expect(Math.abs(a.bpm - score.bpm)).toBeLessThanOrEqual(1)
    expect(a.beats.length).toBeGreaterThan(20)
    // The score's kicks that fall on its beats fall on detected beats within ±10 ms (the grid
    // the samples are aligned to).
    const beat = 60 / score.bpm
    const kicks = score.tracks.drums
      .filter((h) => h.voice === 'kick' && h.time < 23 && Math.abs(h.time / beat - Math.round(h.time / beat)) * beat < 0.002)
      .map((h) => h.time)
    expect(kicks.length).toBeGreaterThan(10)
    const worst = Math.max(...kicks.map((t) => Math.min(...a.beats.map((b) => Math.abs(b - t)))))
    expect(worst).toBeLessThan(0.01)
    expect(a.pitch.length).toBeGreaterThan(400)
    expect(a.key.name).toMatch(/^[A-G]#? (major|minor)$/)
  })
})
