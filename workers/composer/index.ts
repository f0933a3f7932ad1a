export { compose, scoreSeed, normaliseDescription, DEFAULT_MIN_DURATION } from './compose.ts'
export type {
  ComposeRequest,
  Score,
  NoteEvent,
  DrumHit,
  DrumVoice,
  Section,
  SectionName,
  BarChord,
  Instrumentation,
  Heard,
} from './score.ts'
export {
  MOODS,
  GENRES,
  DEFAULT_MOOD,
  DEFAULT_GENRE,
  MOOD_LABELS,
  GENRE_LABELS,
  MOOD_PROFILES,
  GENRE_PROFILES,
  tempoRange,
  designedBrightness,
  isMood,
  isGenre,
} from './styles.ts'
export type { Mood, Genre, LeadKind, ChordKind, BassKind, DrumKit } from './styles.ts'
export { MODE_LABELS, modeQuality } from './theory.ts'
export { scoreTitle, scoreSummary, heardLine } from './describe.ts'
export { interpretDescription, instrumentParts, INSTRUMENTS, INSTRUMENT_PARTS, VOCABULARY, isInstrument } from './vocabulary.ts'
export type { Instrument, Interpretation, Cue } from './vocabulary.ts'
