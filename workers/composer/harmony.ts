import type { Rng } from './prng.ts'
import type { BarChord, NoteEvent, Section } from './score.ts'
import type { ChordRhythm, GenreProfile } from './styles.ts'
import { chordDegrees, degreeToMidi, NOTE_NAMES, type Key, type ModeQuality, MODE_INTERVALS } from './theory.ts'
import { roundTime, stepTime } from './timing.ts'

// Four-bar progressions as chord-root scale degrees, idiomatic for each quality.
const MAJOR_PROGRESSIONS: readonly number[][] = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [0, 3, 4, 3],
  [5, 3, 0, 4],
  [0, 2, 3, 4],
  [3, 4, 2, 5],
  [0, 3, 5, 4],
  [0, 4, 3, 4],
]
const MINOR_PROGRESSIONS: readonly number[][] = [
  [0, 5, 2, 6],
  [0, 6, 5, 6],
  [0, 3, 6, 2],
  [0, 5, 3, 4],
  [0, 3, 4, 0],
  [5, 6, 0, 0],
  [0, 2, 5, 6],
  [0, 6, 3, 5],
]
const JAZZ_PROGRESSIONS: readonly number[][] = [
  [1, 4, 0, 0],
  [1, 4, 0, 5],
  [0, 5, 1, 4],
  [2, 5, 1, 4],
]

export function chooseProgressions(rng: Rng, quality: ModeQuality, jazzy: boolean) {
  const bank = jazzy ? JAZZ_PROGRESSIONS : quality === 'major' ? MAJOR_PROGRESSIONS : MINOR_PROGRESSIONS
  const verse = rng.pick(bank)
  let chorus = rng.pick(bank)
  if (chorus === verse) chorus = bank[(bank.indexOf(verse) + 1) % bank.length] as number[]
  const bridge = rng.pick(quality === 'major' ? MAJOR_PROGRESSIONS : MINOR_PROGRESSIONS)
  return { verse: [...verse], chorus: [...chorus], bridge: [...bridge] }
}

export function chordSymbol(key: Key, degree: number, size: number): string {
  const intervals = MODE_INTERVALS[key.mode]
  const at = (d: number) => (intervals[((d % 7) + 7) % 7] as number) + 12 * Math.floor(d / 7)
  const root = at(degree)
  const third = at(degree + 2) - root
  const fifth = at(degree + 4) - root
  const name = NOTE_NAMES[(key.tonic + root) % 12] as string
  if (size === 2) return `${name}5`
  const base = fifth === 6 ? 'dim' : fifth === 8 ? 'aug' : third === 3 ? 'm' : ''
  if (size < 4) return name + base
  const seventh = at(degree + 6) - root
  if (base === '' && seventh === 11) return `${name}maj7`
  if (base === 'dim') return `${name}m7b5`
  return `${name}${base}7`
}

export function barChords(
  key: Key,
  sections: Section[],
  progressions: { verse: number[]; chorus: number[]; bridge: number[] },
  size: number,
): BarChord[] {
  const out: BarChord[] = []
  for (const s of sections) {
    const prog = s.name === 'chorus' ? progressions.chorus : s.name === 'bridge' ? progressions.bridge : progressions.verse
    for (let i = 0; i < s.bars; i++) {
      // The outro resolves to the tonic on its last bar.
      const degree = s.name === 'outro' && i === s.bars - 1 ? 0 : (prog[i % prog.length] as number)
      const degrees = size === 2 ? [degree, degree + 4] : chordDegrees(degree, size)
      out.push({
        bar: s.startBar + i,
        degree,
        symbol: chordSymbol(key, degree, size),
        pitchClasses: degrees.map((d) => degreeToMidi(key, d, 0) % 12),
      })
    }
  }
  return out
}

/** Close voicing folded into [low, low + 12]: smooth voice leading without tracking previous chords. */
export function voiceChord(key: Key, degree: number, size: number, low: number): number[] {
  const degrees = size === 2 ? [degree, degree + 4, degree + 7] : chordDegrees(degree, size)
  const notes = degrees.map((d) => {
    let m = degreeToMidi(key, d, 0)
    while (m < low) m += 12
    while (m >= low + 12 + (size === 2 ? 7 : 0)) m -= 12
    return m
  })
  if (size === 2) {
    // Power chord: root, fifth above it, octave.
    const root = notes[0] as number
    return [root, root + ((notes[1]! - root + 12) % 12), root + 12]
  }
  return [...new Set(notes)].sort((a, b) => a - b)
}

type Hit = [step: number, length: number]

function rhythmHits(rhythm: ChordRhythm, rng: Rng, energy: number): Hit[] {
  switch (rhythm) {
    case 'sustain':
      return [[0, 16]]
    case 'stabs':
      return energy > 0.8
        ? [
            [0, 1.5],
            [3, 1.5],
            [6, 1.5],
            [10, 1.5],
            [14, 1.5],
          ]
        : [
            [2, 1.5],
            [6, 1.5],
            [10, 1.5],
            [14, 1.5],
          ]
    case 'eighths':
      return Array.from({ length: 8 }, (_, i): Hit => [i * 2, 1.7])
    case 'sixteenths':
      return Array.from({ length: 16 }, (_, i): Hit => [i, 0.85])
    case 'comp':
      return rng.pick<Hit[]>([
        [
          [0, 3],
          [6, 2],
          [10, 4],
        ],
        [
          [0, 2],
          [3, 3],
          [8, 2],
          [14, 2],
        ],
        [
          [2, 3],
          [6, 2],
          [12, 4],
        ],
      ])
    case 'arpeggio':
      return []
  }
}

/** Chord-instrument notes for one bar. */
export function chordBarNotes(
  key: Key,
  chord: BarChord,
  genre: GenreProfile,
  rng: Rng,
  section: Section,
  stepSeconds: number,
  barStart: number,
): NoteEvent[] {
  const voicing = voiceChord(key, chord.degree, genre.chordSize, genre.chordSize === 2 ? 40 : 55)
  const vel = 0.45 + 0.4 * section.energy
  const out: NoteEvent[] = []
  if (genre.chordRhythm === 'arpeggio') {
    // Up-and-down broken chord in eighths (sixteenths when the section is energetic).
    const grid = section.energy > 0.9 ? 1 : 2
    const pattern = [...voicing, (voicing[0] as number) + 12, ...voicing.slice(1).reverse()]
    for (let s = 0, i = 0; s < 16; s += grid, i++) {
      const t = barStart + stepTime(s, stepSeconds, genre.swing)
      out.push({
        time: roundTime(t),
        duration: roundTime(stepSeconds * grid * 1.8),
        midi: pattern[i % pattern.length] as number,
        velocity: vel * (s % 4 === 0 ? 1 : 0.8),
      })
    }
    return out
  }
  for (const [step, len] of rhythmHits(genre.chordRhythm, rng, section.energy)) {
    const t = barStart + stepTime(step, stepSeconds, genre.swing)
    for (const midi of voicing)
      out.push({ time: roundTime(t), duration: roundTime(len * stepSeconds), midi, velocity: vel * (step % 4 === 0 ? 1 : 0.85) })
  }
  return out
}

/** A sustained pad chord (strings) an octave above the bass, one per bar. */
export function padBarNotes(key: Key, chord: BarChord, section: Section, barSeconds: number, barStart: number): NoteEvent[] {
  return voiceChord(key, chord.degree, 3, 50).map((midi) => ({
    time: roundTime(barStart),
    duration: roundTime(barSeconds * 0.98),
    midi,
    velocity: 0.3 + 0.25 * section.energy,
  }))
}
