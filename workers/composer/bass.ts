import type { Rng } from './prng.ts'
import type { BarChord, NoteEvent, Section } from './score.ts'
import type { BassRhythm } from './styles.ts'
import { degreeToMidi, type Key } from './theory.ts'
import { roundTime, stepTime } from './timing.ts'

type Tone = 'root' | 'fifth' | 'octave' | 'third' | 'approach'
type BassHit = [step: number, length: number, tone: Tone]

const PATTERNS: Record<BassRhythm, readonly BassHit[][]> = {
  offbeat: [
    [
      [2, 1.8, 'root'],
      [6, 1.8, 'root'],
      [10, 1.8, 'root'],
      [14, 1.8, 'octave'],
    ],
    [
      [0, 1.5, 'root'],
      [2, 1.8, 'root'],
      [6, 1.8, 'root'],
      [10, 1.8, 'fifth'],
      [14, 1.8, 'root'],
    ],
  ],
  eighths: [
    Array.from({ length: 8 }, (_, i): BassHit => [i * 2, 1.8, i === 6 ? 'fifth' : 'root']),
    Array.from({ length: 8 }, (_, i): BassHit => [i * 2, 1.8, i === 7 ? 'octave' : 'root']),
  ],
  syncopated: [
    [
      [0, 3, 'root'],
      [3, 2, 'root'],
      [7, 2, 'fifth'],
      [10, 3, 'root'],
      [14, 2, 'octave'],
    ],
    [
      [0, 5, 'root'],
      [6, 2, 'root'],
      [10, 2, 'third'],
      [13, 3, 'fifth'],
    ],
  ],
  walking: [
    [
      [0, 3.6, 'root'],
      [4, 3.6, 'third'],
      [8, 3.6, 'fifth'],
      [12, 3.6, 'approach'],
    ],
    [
      [0, 3.6, 'root'],
      [4, 3.6, 'fifth'],
      [8, 3.6, 'octave'],
      [12, 3.6, 'approach'],
    ],
  ],
  'root-fifth': [
    [
      [0, 7.5, 'root'],
      [8, 7.5, 'fifth'],
    ],
    [
      [0, 5.5, 'root'],
      [6, 2, 'fifth'],
      [8, 7.5, 'root'],
    ],
  ],
  whole: [[[0, 15.5, 'root']]],
  chug: [Array.from({ length: 16 }, (_, i): BassHit => [i, 0.8, i === 14 ? 'fifth' : 'root'])],
}

function bassMidi(key: Key, chord: BarChord, next: BarChord | undefined, tone: Tone): number {
  const rootMidi = (d: number) => {
    let m = degreeToMidi(key, d, 24)
    while (m < 33) m += 12
    while (m > 44) m -= 12
    return m
  }
  const root = rootMidi(chord.degree)
  const shift = (steps: number) => root + (degreeToMidi(key, chord.degree + steps, 24) - degreeToMidi(key, chord.degree, 24))
  switch (tone) {
    case 'root':
      return root
    case 'octave':
      return root + 12
    case 'third':
      return shift(2)
    case 'fifth':
      return shift(4)
    case 'approach': {
      // A scale step above the next bar's root leads into it.
      const target = next ? next.degree : chord.degree
      return rootMidi(target) + (degreeToMidi(key, target + 1, 24) - degreeToMidi(key, target, 24))
    }
  }
}

export function bassBarNotes(
  key: Key,
  chord: BarChord,
  next: BarChord | undefined,
  rhythm: BassRhythm,
  swing: number,
  rng: Rng,
  section: Section,
  stepSeconds: number,
  barStart: number,
): NoteEvent[] {
  const pattern = rng.pick(PATTERNS[rhythm])
  const vel = 0.6 + 0.35 * section.energy
  return pattern.map(([step, len, tone]) => ({
    time: roundTime(barStart + stepTime(step, stepSeconds, swing)),
    duration: roundTime(len * stepSeconds),
    midi: bassMidi(key, chord, next, tone),
    velocity: vel * (step % 4 === 0 ? 1 : 0.85),
  }))
}
