import { describe, expect, it } from 'vitest'
import { dbToGain, deckGain, volumeToGain } from './deck-gain.ts'

describe('deck gains', () => {
  it('volume follows (v/100)², clamped to 0..100; nonsense is silence', () => {
    expect(volumeToGain(100)).toBe(1)
    expect(volumeToGain(50)).toBe(0.25)
    expect(volumeToGain(150)).toBe(1)
    expect(volumeToGain(-5)).toBe(0)
    expect(volumeToGain(Number.NaN)).toBe(0)
  })

  it('an item gain in dB is 10^(dB/20); a missing figure leaves the item as recorded', () => {
    expect(dbToGain(0)).toBe(1)
    expect(dbToGain(-6)).toBeCloseTo(0.501187, 6)
    expect(dbToGain(Number.NaN)).toBe(1)
    expect(deckGain(50, -6)).toBeCloseTo(0.25 * 0.501187, 6)
  })
})
