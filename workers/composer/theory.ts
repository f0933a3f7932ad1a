// Scales, modes and chords as scale-degree arithmetic: every pitch the composer writes is derived
// from a scale degree, which is what keeps melody, bass and chords inside the key by construction.

export type ModeName = 'ionian' | 'lydian' | 'mixolydian' | 'dorian' | 'aeolian' | 'phrygian' | 'harmonicMinor'
export type ModeQuality = 'major' | 'minor'

export const MODE_INTERVALS: Record<ModeName, readonly number[]> = {
  ionian: [0, 2, 4, 5, 7, 9, 11],
  lydian: [0, 2, 4, 6, 7, 9, 11],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  aeolian: [0, 2, 3, 5, 7, 8, 10],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
  harmonicMinor: [0, 2, 3, 5, 7, 8, 11],
}

/** A mode is major when its third degree is a major third above the tonic. */
export const modeQuality = (mode: ModeName): ModeQuality => (MODE_INTERVALS[mode][2] === 4 ? 'major' : 'minor')

export const NOTE_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const

export const MODE_LABELS: Record<ModeName, string> = {
  ionian: 'major',
  lydian: 'lydian',
  mixolydian: 'mixolydian',
  dorian: 'dorian',
  aeolian: 'minor',
  phrygian: 'phrygian',
  harmonicMinor: 'harmonic minor',
}

export interface Key {
  tonic: number
  mode: ModeName
}

/** Pitch classes (0–11) of the key's scale. */
export const scalePitchClasses = (key: Key): number[] => MODE_INTERVALS[key.mode].map((i) => (key.tonic + i) % 12)

/**
 * MIDI note of a scale degree. Degree 0 is the tonic in the octave starting at `baseMidi` rounded to the
 * tonic; degrees beyond 6 (or below 0) continue into the next (previous) octaves.
 */
export function degreeToMidi(key: Key, degree: number, octaveBase: number): number {
  const intervals = MODE_INTERVALS[key.mode]
  const octave = Math.floor(degree / 7)
  const step = ((degree % 7) + 7) % 7
  return octaveBase + key.tonic + octave * 12 + (intervals[step] as number)
}

/** Chord tones as scale degrees, stacked in thirds from `root`. */
export const chordDegrees = (root: number, size: number): number[] => Array.from({ length: size }, (_, i) => root + i * 2)

/** The degree whose MIDI pitch is closest to `midi`, searching in scale steps. */
export function nearestDegree(key: Key, midi: number, octaveBase: number): number {
  let best = 0
  let bestDist = Infinity
  for (let d = -21; d <= 35; d++) {
    const dist = Math.abs(degreeToMidi(key, d, octaveBase) - midi)
    if (dist < bestDist) {
      bestDist = dist
      best = d
    }
  }
  return best
}
