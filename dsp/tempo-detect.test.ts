import { describe, expect, it } from 'vitest'
import { arpeggio, backbeat, RHYTHM_SR as SR } from './rhythm-test-signals.ts'
import { detectTempo } from './tempo-detect.ts'

// The tempo's octave on material whose beat is unambiguous to a listener; accuracy on composer
// pieces and the catalogue is measured in workers/remix-tempo.test.ts and
// tests/browser/tempo-side-by-side.test.ts.
describe('tempo octave', () => {
  for (const bpm of [70, 100, 160])
    it(`a backbeat groove at ${bpm} BPM reads as ${bpm}, not double, half or 2:3`, () => {
      expect(Math.abs(detectTempo(backbeat(bpm), SR).bpm - bpm)).toBeLessThanOrEqual(1)
    })
  for (const bpm of [72, 96])
    it(`a drumless arpeggio (eighths over a bass on the beat, a chord a bar) at ${bpm} BPM reads as ${bpm}`, () => {
      expect(Math.abs(detectTempo(arpeggio(bpm), SR).bpm - bpm)).toBeLessThanOrEqual(1)
    })
  // Every 4 BPM across the range, at tempi the model is never fitted on (scripts/tempo-model/fit.ts
  // fits the same signals every 4 BPM from 58). The model before 2026-11-27 halved the backbeat at
  // 128, 132, 136 and 144 and the arpeggio at 116, 144 and 164.
  it('both, every 4 BPM from 60 to 180, read as their tempo', () => {
    const wrong: string[] = []
    for (let bpm = 60; bpm <= 180; bpm += 4)
      for (const [name, signal] of [
        ['backbeat', backbeat],
        ['arpeggio', arpeggio],
      ] as const) {
        const found = detectTempo(signal(bpm), SR).bpm
        if (Math.abs(found - bpm) > 1) wrong.push(`${name} ${bpm} → ${found.toFixed(1)}`)
      }
    expect(wrong).toEqual([])
  })
})
