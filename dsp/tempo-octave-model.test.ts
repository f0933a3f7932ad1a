import { describe, expect, it } from 'vitest'
import { FEATURE_NAMES } from './metrical-features.ts'
import { scoreTempoCandidate, TEMPO_MODEL_WEIGHTS } from './tempo-octave-model.ts'

describe('tempo model', () => {
  it('weighs every metrical feature with a finite weight, linearly', () => {
    expect(TEMPO_MODEL_WEIGHTS).toHaveLength(FEATURE_NAMES.length)
    expect(TEMPO_MODEL_WEIGHTS.every((w) => Number.isFinite(w))).toBe(true)
    const unit = (i: number) => FEATURE_NAMES.map((_, j) => (j === i ? 1 : 0))
    FEATURE_NAMES.forEach((_, i) => expect(scoreTempoCandidate(unit(i))).toBeCloseTo(TEMPO_MODEL_WEIGHTS[i]!, 12))
    expect(scoreTempoCandidate(FEATURE_NAMES.map(() => 0))).toBe(0)
  })
})
