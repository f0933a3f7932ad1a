import { describe, expect, it } from 'vitest'
import { diatonicIntervals, Harmonizer, tonicIntervals, type KeyMode } from './harmonizer.ts'
import { PitchTracker } from './pitch-tracker.ts'
import { amplitudeAt, db, noise, peakNear, rms, sine } from './test-signals.ts'

const SR = 44100
const A = 9

function intervals(midi: number, tonic: number, mode: KeyMode): number[] {
  const out = [0, 0]
  diatonicIntervals(midi, tonic, mode, out)
  return out
}

/** The harmonizer fed by a pitch tracker on its input, as the remix tools chain runs it. */
function harmonize(x: Float32Array, tonic: number, mode: KeyMode): { voices: Float32Array; h: Harmonizer } {
  const tracker = new PitchTracker(SR)
  const h = new Harmonizer(SR)
  h.setKey(tonic, mode)
  const voices = new Float32Array(x.length)
  for (let i = 0; i < x.length; i++) {
    if (tracker.push(x[i]!)) h.update(tracker.hz)
    voices[i] = h.next(x[i]!, tracker.period)
  }
  return { voices, h }
}

describe('Harmonize (diatonic third and fifth above)', () => {
  it('picks 2 and 4 scale steps above the nearest scale note', () => {
    // A major: A → C#, E; B → D, F#; G# (leading tone) → B, D; E → G#, B.
    expect(intervals(69, A, 0)).toEqual([4, 7])
    expect(intervals(71, A, 0)).toEqual([3, 7])
    expect(intervals(68, A, 0)).toEqual([3, 6])
    expect(intervals(76, A, 0)).toEqual([4, 7])
    // Off-scale or out of tune: the nearest scale note decides (69.4 is A; 69.6 is nearer B).
    expect(intervals(69.4, A, 0)).toEqual([4, 7])
    expect(intervals(70.6, A, 0)).toEqual([3, 7])
    // A minor: A → C, E; C → E, G; E → G, B; G → B, D.
    expect(intervals(57, A, 1)).toEqual([3, 7])
    expect(intervals(60, A, 1)).toEqual([4, 7])
    expect(intervals(64, A, 1)).toEqual([3, 7])
    expect(intervals(67, A, 1)).toEqual([4, 7])
    expect(tonicIntervals(0)).toEqual([4, 7])
    expect(tonicIntervals(1)).toEqual([3, 7])
  })

  it(
    'a 440 Hz tone in A major gets voices at C#5 554.37 Hz and E5 659.26 Hz (spectral peaks within ±1 %), each near the ' + "lead's level",
    () => {
      const x = sine(2 * SR, 440, 0.5, SR)
      const { voices } = harmonize(x, A, 0)
      const from = SR / 2,
        n = 32768
      for (const hz of [554.37, 659.26]) {
        const got = peakNear(voices, hz, 0.03 * hz, from, n, SR)
        expect(Math.abs(got / hz - 1)).toBeLessThan(0.01)
      }
      // Each voice at the lead's level; what is left at the lead's own pitch is > 50 dB below
      // (measured: voices −6.0 dBFS each, 440 Hz −60.5 dBFS); together 2x the lead's power.
      for (const hz of [554.37, 659.26]) expect(Math.abs(db(amplitudeAt(voices, hz, from, SR, SR) / 0.5))).toBeLessThan(0.2)
      expect(db(amplitudeAt(voices, 440, from, SR, SR) / 0.5)).toBeLessThan(-50)
      const ratioDb = 20 * Math.log10(rms(voices, from, from + n) / rms(x, from, from + n))
      expect(Math.abs(ratioDb - 3)).toBeLessThan(0.5)
    },
  )

  it('B4 in A major gets D5 and F#5 (+3, +7): peaks within ±1 %', () => {
    const b4 = 493.88
    const { voices } = harmonize(sine(2 * SR, b4, 0.5, SR), A, 0)
    for (const semis of [3, 7]) {
      const hz = b4 * 2 ** (semis / 12)
      expect(Math.abs(peakNear(voices, hz, 0.03 * hz, SR / 2, 32768, SR) / hz - 1)).toBeLessThan(0.01)
    }
  })

  it("unvoiced input falls back to the tonic chord's intervals after the hold: +4/+7 in major, +3/+7 in minor", () => {
    for (const mode of [0, 1] as const) {
      const { h } = harmonize(noise(SR / 2, 0.3, 4), A, mode)
      expect(Array.from(h.intervals)).toEqual(mode === 0 ? [4, 7] : [3, 7])
    }
    // A voiced note then noise: B's intervals are held for ~150 ms, then the tonic's.
    const x = new Float32Array(SR)
    x.set(sine(SR / 2, 493.88, 0.5, SR))
    x.set(noise(SR / 2, 0.3, 9), SR / 2)
    const tracker = new PitchTracker(SR)
    const h = new Harmonizer(SR)
    h.setKey(A, 0)
    const at = (t: number) => Math.round(t * SR)
    let held: number[] = [],
      after: number[] = []
    for (let i = 0; i < x.length; i++) {
      if (tracker.push(x[i]!)) h.update(tracker.hz)
      h.next(x[i]!, tracker.period)
      if (i === at(0.6)) held = Array.from(h.intervals)
      if (i === at(0.75)) after = Array.from(h.intervals)
    }
    expect(held).toEqual([3, 7])
    expect(after).toEqual([4, 7])
  })
})
