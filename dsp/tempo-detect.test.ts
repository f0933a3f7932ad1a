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
  // One test per tempo: 62 detections in one test took 21 of its 30 s while the suite's workers
  // shared the cores.
  for (let bpm = 60; bpm <= 180; bpm += 4)
    it(`the backbeat and the arpeggio at ${bpm} BPM read as ${bpm}`, () => {
      const found = { backbeat: detectTempo(backbeat(bpm), SR).bpm, arpeggio: detectTempo(arpeggio(bpm), SR).bpm }
      expect(Math.abs(found.backbeat - bpm), `backbeat ${bpm} → ${found.backbeat.toFixed(1)}`).toBeLessThanOrEqual(1)
      expect(Math.abs(found.arpeggio - bpm), `arpeggio ${bpm} → ${found.arpeggio.toFixed(1)}`).toBeLessThanOrEqual(1)
    })
})
