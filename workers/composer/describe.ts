import type { Score } from './score.ts'
import { GENRE_LABELS, MOOD_LABELS } from './styles.ts'
import { MODE_LABELS } from './theory.ts'
import { INSTRUMENT_PARTS } from './vocabulary.ts'

/** 'Upbeat Electronic #ab12': mood and genre, plus the piece's tag so two generations are told apart. */
export const scoreTitle = (score: Pick<Score, 'mood' | 'genre' | 'tag'>): string =>
  `${MOOD_LABELS[score.mood]} ${GENRE_LABELS[score.genre]} #${score.tag}`

/** '124 BPM · A minor' */
export const scoreSummary = (score: Pick<Score, 'bpm' | 'key' | 'mode'>): string =>
  `${score.bpm} BPM · ${score.key.name} ${MODE_LABELS[score.mode]}`

/** 'Heard: sad · electronic · saxophone lead': what the description decided, or null when it decided nothing. */
export function heardLine(score: Pick<Score, 'heard'>): string | null {
  const { mood, genre, instruments } = score.heard
  const parts = [
    mood && MOOD_LABELS[mood].toLowerCase(),
    genre && GENRE_LABELS[genre].toLowerCase(),
    ...instruments.map((i) => INSTRUMENT_PARTS[i].label),
  ].filter(Boolean)
  return parts.length ? `Heard: ${parts.join(' · ')}` : null
}
