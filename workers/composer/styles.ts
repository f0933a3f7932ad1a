import type { ModeName } from './theory.ts'

export const MOODS = ['upbeat', 'chill', 'energetic', 'dark', 'happy', 'sad', 'romantic', 'epic', 'mysterious'] as const
export const GENRES = ['electronic', 'pop', 'rock', 'hip-hop', 'jazz', 'folk', 'classical', 'ambient', 'metal'] as const
export type Mood = (typeof MOODS)[number]
export type Genre = (typeof GENRES)[number]
export const DEFAULT_MOOD: Mood = 'upbeat'
export const DEFAULT_GENRE: Genre = 'electronic'

export type LeadKind = 'supersaw' | 'square' | 'distorted' | 'epiano' | 'vibes' | 'flute' | 'bell' | 'pluck' | 'sax'
export type ChordKind = 'saw-pad' | 'pluck' | 'power' | 'epiano' | 'guitar' | 'strings' | 'glass'
export type BassKind = 'saw' | 'sub' | 'pick' | 'upright' | 'cello' | 'distorted'
export type DrumKit = 'electronic' | 'pop' | 'rock' | 'boom-bap' | 'brush' | 'light' | 'metal' | 'soft' | 'none'
export type ChordRhythm = 'sustain' | 'stabs' | 'eighths' | 'sixteenths' | 'arpeggio' | 'comp'
export type BassRhythm = 'offbeat' | 'eighths' | 'syncopated' | 'walking' | 'root-fifth' | 'whole' | 'chug'

export interface MoodProfile {
  /** Multiplies the genre's base tempo. */
  tempoFactor: number
  /** Candidate modes; all of one quality, so a mood is reliably major or minor. */
  modes: readonly ModeName[]
  /** 0 (dark, muffled) … 1 (bright, open); drives the filters. */
  brightness: number
  /** 0 … 1: note density of melody and drums. */
  energy: number
  /** Extra sustained pad layer (strings) under the chords. */
  pad: boolean
}

export interface GenreProfile {
  baseTempo: number
  brightnessOffset: number
  lead: LeadKind
  chords: ChordKind
  chordRhythm: ChordRhythm
  /** 3 for triads, 4 for seventh chords. */
  chordSize: number
  bass: BassKind
  bassRhythm: BassRhythm
  drums: DrumKit
  /** Delay of every off-beat sixteenth as a fraction of a sixteenth. */
  swing: number
  reverb: number
  delay: number
  drive: number
  /** Melody on an eighth-note grid (false) or a quarter-note grid (true) for slow, sparse styles. */
  sparseMelody: boolean
}

// Tempo = genre base × mood factor (± 3 %), so both knobs move the tempo in a designed direction.
export const MOOD_PROFILES: Record<Mood, MoodProfile> = {
  upbeat: { tempoFactor: 1.0, modes: ['ionian', 'mixolydian'], brightness: 0.7, energy: 0.7, pad: false },
  chill: { tempoFactor: 0.78, modes: ['ionian', 'lydian'], brightness: 0.38, energy: 0.35, pad: false },
  energetic: { tempoFactor: 1.16, modes: ['aeolian', 'dorian'], brightness: 0.85, energy: 0.95, pad: false },
  dark: { tempoFactor: 0.88, modes: ['phrygian', 'aeolian', 'harmonicMinor'], brightness: 0.18, energy: 0.55, pad: true },
  happy: { tempoFactor: 1.06, modes: ['ionian', 'lydian'], brightness: 0.75, energy: 0.7, pad: false },
  sad: { tempoFactor: 0.72, modes: ['aeolian', 'dorian'], brightness: 0.3, energy: 0.3, pad: true },
  romantic: { tempoFactor: 0.8, modes: ['ionian', 'lydian'], brightness: 0.45, energy: 0.4, pad: true },
  epic: { tempoFactor: 0.94, modes: ['aeolian', 'harmonicMinor'], brightness: 0.65, energy: 0.85, pad: true },
  mysterious: { tempoFactor: 0.84, modes: ['phrygian', 'dorian', 'harmonicMinor'], brightness: 0.35, energy: 0.45, pad: true },
}

export const GENRE_PROFILES: Record<Genre, GenreProfile> = {
  electronic: {
    baseTempo: 124,
    brightnessOffset: 0.1,
    lead: 'supersaw',
    chords: 'saw-pad',
    chordRhythm: 'stabs',
    chordSize: 3,
    bass: 'saw',
    bassRhythm: 'offbeat',
    drums: 'electronic',
    swing: 0,
    reverb: 0.25,
    delay: 0.3,
    drive: 0,
    sparseMelody: false,
  },
  pop: {
    baseTempo: 112,
    brightnessOffset: 0.05,
    lead: 'square',
    chords: 'pluck',
    chordRhythm: 'eighths',
    chordSize: 3,
    bass: 'sub',
    bassRhythm: 'eighths',
    drums: 'pop',
    swing: 0,
    reverb: 0.2,
    delay: 0.2,
    drive: 0,
    sparseMelody: false,
  },
  rock: {
    baseTempo: 128,
    brightnessOffset: 0.1,
    lead: 'distorted',
    chords: 'power',
    chordRhythm: 'eighths',
    chordSize: 2,
    bass: 'pick',
    bassRhythm: 'eighths',
    drums: 'rock',
    swing: 0,
    reverb: 0.15,
    delay: 0.1,
    drive: 0.55,
    sparseMelody: false,
  },
  'hip-hop': {
    baseTempo: 90,
    brightnessOffset: -0.15,
    lead: 'epiano',
    chords: 'epiano',
    chordRhythm: 'comp',
    chordSize: 4,
    bass: 'sub',
    bassRhythm: 'syncopated',
    drums: 'boom-bap',
    swing: 0.3,
    reverb: 0.2,
    delay: 0.15,
    drive: 0,
    sparseMelody: false,
  },
  jazz: {
    baseTempo: 120,
    brightnessOffset: -0.1,
    lead: 'vibes',
    chords: 'epiano',
    chordRhythm: 'comp',
    chordSize: 4,
    bass: 'upright',
    bassRhythm: 'walking',
    drums: 'brush',
    swing: 0.5,
    reverb: 0.25,
    delay: 0,
    drive: 0,
    sparseMelody: false,
  },
  folk: {
    baseTempo: 100,
    brightnessOffset: 0,
    lead: 'flute',
    chords: 'guitar',
    chordRhythm: 'arpeggio',
    chordSize: 3,
    bass: 'upright',
    bassRhythm: 'root-fifth',
    drums: 'light',
    swing: 0.1,
    reverb: 0.25,
    delay: 0,
    drive: 0,
    sparseMelody: false,
  },
  classical: {
    baseTempo: 96,
    brightnessOffset: -0.05,
    lead: 'flute',
    chords: 'strings',
    chordRhythm: 'arpeggio',
    chordSize: 3,
    bass: 'cello',
    bassRhythm: 'root-fifth',
    drums: 'none',
    swing: 0,
    reverb: 0.4,
    delay: 0,
    drive: 0,
    sparseMelody: true,
  },
  ambient: {
    baseTempo: 72,
    brightnessOffset: -0.2,
    lead: 'bell',
    chords: 'glass',
    chordRhythm: 'sustain',
    chordSize: 4,
    bass: 'sub',
    bassRhythm: 'whole',
    drums: 'soft',
    swing: 0,
    reverb: 0.6,
    delay: 0.4,
    drive: 0,
    sparseMelody: true,
  },
  metal: {
    baseTempo: 160,
    brightnessOffset: 0.2,
    lead: 'distorted',
    chords: 'power',
    chordRhythm: 'sixteenths',
    chordSize: 2,
    bass: 'distorted',
    bassRhythm: 'chug',
    drums: 'metal',
    swing: 0,
    reverb: 0.12,
    delay: 0.05,
    drive: 0.9,
    sparseMelody: false,
  },
}

const TEMPO_JITTER = 0.03

/** The designed tempo range of a mood + genre, in BPM (inclusive, rounded). */
export function tempoRange(mood: Mood, genre: Genre): [number, number] {
  const centre = GENRE_PROFILES[genre].baseTempo * MOOD_PROFILES[mood].tempoFactor
  return [Math.round(centre * (1 - TEMPO_JITTER)), Math.round(centre * (1 + TEMPO_JITTER))]
}

export const clamp01 = (v: number): number => Math.min(1, Math.max(0, v))

/** Designed brightness (0 … 1) of a mood + genre before section-level variation. */
export const designedBrightness = (mood: Mood, genre: Genre): number =>
  Math.min(1, Math.max(0.05, MOOD_PROFILES[mood].brightness + GENRE_PROFILES[genre].brightnessOffset))

export const isMood = (v: unknown): v is Mood => typeof v === 'string' && (MOODS as readonly string[]).includes(v)
export const isGenre = (v: unknown): v is Genre => typeof v === 'string' && (GENRES as readonly string[]).includes(v)

export const MOOD_LABELS: Record<Mood, string> = {
  upbeat: 'Upbeat',
  chill: 'Chill',
  energetic: 'Energetic',
  dark: 'Dark',
  happy: 'Happy',
  sad: 'Sad',
  romantic: 'Romantic',
  epic: 'Epic',
  mysterious: 'Mysterious',
}
export const GENRE_LABELS: Record<Genre, string> = {
  electronic: 'Electronic',
  pop: 'Pop',
  rock: 'Rock',
  'hip-hop': 'Hip-Hop',
  jazz: 'Jazz',
  folk: 'Folk',
  classical: 'Classical',
  ambient: 'Ambient',
  metal: 'Metal',
}
