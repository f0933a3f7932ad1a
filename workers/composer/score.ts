import type { Genre, Mood, LeadKind, ChordKind, BassKind, DrumKit } from './styles.ts'
import type { ModeName, ModeQuality } from './theory.ts'
import type { Instrument, Texture } from './vocabulary.ts'

// The composer's output: everything the renderer needs, in seconds, plus the musical facts
// (tempo, key, progression, sections) the UI shows and the tests check.

export interface ComposeRequest {
  description: string
  /** Unset: inferred from the description (vocabulary.ts), else the default. */
  mood?: Mood
  genre?: Genre
  /** Unset: the instruments the description names. An empty list keeps the genre's own voices. */
  instruments?: readonly Instrument[]
  /** The arrangement's sections together last at least this long (default 30 s). */
  minDurationSeconds?: number
}

export interface NoteEvent {
  /** Start, seconds from the beginning of the piece. */
  time: number
  duration: number
  midi: number
  /** 0 … 1 */
  velocity: number
}

export type DrumVoice = 'kick' | 'snare' | 'hat' | 'openHat' | 'ride' | 'crash'

export interface DrumHit {
  time: number
  voice: DrumVoice
  velocity: number
}

export type SectionName = 'intro' | 'verse' | 'chorus' | 'bridge' | 'outro'

export interface SectionLayers {
  kick: boolean
  drums: boolean
  bass: boolean
  chords: boolean
  pad: boolean
  melody: boolean
}

export interface Section {
  name: SectionName
  startBar: number
  bars: number
  startTime: number
  endTime: number
  /** 0 … 1, scales velocities and density. */
  energy: number
  /** 0 … 1, the filter brightness in this section (the chorus opens up). */
  brightness: number
  layers: SectionLayers
}

/** A bar's chord: the scale degree of its root and the pitch classes it holds. */
export interface BarChord {
  bar: number
  degree: number
  symbol: string
  pitchClasses: number[]
}

export interface DrumPattern {
  /** Sixteenth steps per bar. */
  steps: 16
  /** Velocity per step (0 = silent), the groove of a verse bar. */
  kick: number[]
  snare: number[]
  hat: number[]
  openHat: number[]
  ride: number[]
}

export interface Instrumentation {
  lead: LeadKind
  chords: ChordKind
  bass: BassKind
  drums: DrumKit
  /** A sustained string pad under the chords. */
  pad: boolean
}

export interface Heard {
  mood?: Mood
  genre?: Genre
  instruments: Instrument[]
  /** The scene sounds the description named (rendered as their own layer). */
  textures: Texture[]
  /** The vocabulary words matched, in order of mention. */
  words: string[]
  /** Matched words that changed nothing (a mood that lost, an explicit choice, a part taken): said on the page. */
  unused: string[]
}

export interface MixSettings {
  reverb: number
  delay: number
  drive: number
}

export interface Score {
  version: 1
  seed: number
  /** Four hex digits identifying the piece (used in its title). */
  tag: string
  description: string
  mood: Mood
  genre: Genre
  /** The instruments that changed the genre's voices (from the request or the description). */
  instruments: Instrument[]
  /** Scene sounds from the description, each a layer of its own ('ocean waves'). */
  textures: Texture[]
  /** What the description decided because the request left it open, for the UI's 'Heard:' line. */
  heard: Heard
  bpm: number
  beatsPerBar: 4
  barSeconds: number
  swing: number
  key: { tonic: number; name: string }
  mode: ModeName
  quality: ModeQuality
  /** Pitch classes of the scale. */
  scale: number[]
  /** Chord-root degrees (0 = tonic) of each section kind's four-bar progression. */
  progressions: { verse: number[]; chorus: number[]; bridge: number[] }
  chords: BarChord[]
  drumPattern: DrumPattern
  sections: Section[]
  instrumentation: Instrumentation
  /** 0 … 1, the piece's designed brightness (filter cutoff), before section variation. */
  brightness: number
  mix: MixSettings
  tracks: {
    melody: NoteEvent[]
    chords: NoteEvent[]
    pad: NoteEvent[]
    bass: NoteEvent[]
    drums: DrumHit[]
  }
  /** End of the last section, seconds. */
  duration: number
  /** Length to render: the arrangement plus room for release and reverb tails. */
  renderDuration: number
}
