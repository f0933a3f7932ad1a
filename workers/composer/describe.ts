import type { Score } from './score.ts'
import { GENRE_LABELS, MOOD_LABELS } from './styles.ts'
import { MODE_LABELS } from './theory.ts'

/** 'Upbeat Electronic #ab12': mood and genre, plus the piece's tag so two generations are told apart. */
export const scoreTitle = (score: Pick<Score, 'mood' | 'genre' | 'tag'>): string => `${MOOD_LABELS[score.mood]} ${GENRE_LABELS[score.genre]} #${score.tag}`

/** '124 BPM · A minor' */
export const scoreSummary = (score: Pick<Score, 'bpm' | 'key' | 'mode'>): string => `${score.bpm} BPM · ${score.key.name} ${MODE_LABELS[score.mode]}`
