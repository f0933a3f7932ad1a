import { describe, expect, it } from 'vitest'
import { GENRES } from './composer/index.ts'
import { composerPieces, renderScore } from './composer-test-render.ts'
import { detectTempo } from '../audio-worklets/kernels/tempo-detect.ts'

// Beat Match's tempo detection against composer-generated pieces whose true tempo is in the
// score, rendered at 8 kHz over their first 24 s (composer-test-render.ts): fast enough for CI.

const SR = 8000

// The bar is ≥ 90 % strictly within ±1 BPM (half/double = failure). NOT met yet: the
// kernel finds the beat period's family precisely (≥ 90 % within ±1 BPM of the tempo, its half or
// its double) but picks the wrong octave on about a quarter of the pieces. This test pins both
// measured figures so a regression fails; the strict bar stays open (see the README's status).
describe('tempo detection on composer pieces', () => {
  it('45 pieces across all genres: ≥ 90 % within ±1 BPM of the tempo or its octave, ≥ 70 % strictly', () => {
    const pieces = composerPieces()
    expect(new Set(pieces.map((p) => p.genre)).size).toBe(GENRES.length)
    const misses: string[] = []
    let family = 0
    for (const score of pieces) {
      const { bpm } = detectTempo(renderScore(score), SR)
      if ([1, 0.5, 2].some((f) => Math.abs(bpm - score.bpm * f) <= 1)) family++
      if (Math.abs(bpm - score.bpm) > 1) misses.push(`${score.genre}/${score.mood} ${score.bpm} → ${bpm}`)
    }
    const strict = (pieces.length - misses.length) / pieces.length
    console.log(`tempo: ${(strict * 100).toFixed(1)} % strictly, ${((family / pieces.length) * 100).toFixed(1)} % up to octave; misses: ${misses.join('; ')}`)
    expect(family / pieces.length).toBeGreaterThanOrEqual(0.9)
    expect(strict).toBeGreaterThanOrEqual(0.7)
  }, 180_000)
})
