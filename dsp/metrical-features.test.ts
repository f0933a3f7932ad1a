import { describe, expect, it } from 'vitest'
import { FEATURE_NAMES, metricalContext, metricalFeatures } from './metrical-features.ts'
import { onsetBands } from './onset-bands.ts'
import { backbeat, RHYTHM_SR as SR } from './rhythm-test-signals.ts'

describe('metrical features', () => {
  it('a backbeat alternates at the true beat, not at half tempo; in the low band and above', () => {
    const bands = onsetBands(backbeat(100), SR)
    const ctx = metricalContext(bands)
    const at = (bpm: number) => Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, metricalFeatures(ctx, bpm, 1)[i]!]))
    const beat = at(100),
      half = at(50)
    console.log(
      `alternation low/high at 100: ${beat['low alternation']!.toFixed(2)}/${beat['high alternation']!.toFixed(2)}, at ` +
        `50: ${half['low alternation']!.toFixed(2)}/${half['high alternation']!.toFixed(2)}`,
    )
    // Kick then snare: unequal alternate beats in the low band (0.22 measured) and above (0.14);
    // at half tempo both 'beats' are kicks (0.01 / 0.03).
    expect(beat['low alternation']!).toBeGreaterThan(0.15)
    expect(beat['low alternation']!).toBeGreaterThan(5 * half['low alternation']!)
    expect(beat['high alternation']!).toBeGreaterThan(half['high alternation']! + 0.05)
    expect(beat['log2 tempo']).toBe(0)
  })
})
