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
})
