import type { Score } from './score.ts'
import { GENRE_LABELS, MOOD_LABELS } from './styles.ts'
import { MODE_LABELS } from './theory.ts'
import { INSTRUMENT_PARTS, TEXTURE_LABELS } from './vocabulary.ts'

/** Request words that say nothing about the piece ('make me a …'), dropped from the start of a title. */
const PREAMBLE = new Set([
  'make',
  'create',
  'generate',
  'compose',
  'write',
  'play',
  'give',
  'me',
  'us',
  'i',
  'want',
  'need',
  'please',
  'a',
  'an',
  'the',
  'some',
])
/** Kept lower case inside a title. */
const MINOR_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'on',
  'in',
  'at',
  'to',
  'with',
  'for',
  'by',
  'over',
  'under',
  'from',
  'into',
  'as',
])
const TITLE_WORDS = 8
const TITLE_CHARS = 50

/** The description as a title: request words dropped, at most eight words, title case ('sad jazz piano on a rainy night' →
 * 'Sad Jazz Piano on a Rainy Night'). Empty when the description has no words of its own. */
export function descriptionTitle(description: string): string {
  const words = description
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean)
  while (words.length && PREAMBLE.has(words[0]!.toLowerCase())) words.shift()
  const kept: string[] = []
  let chars = 0
  for (const w of words) {
    if (kept.length === TITLE_WORDS || chars + w.length > TITLE_CHARS) break
    kept.push(w)
    chars += w.length + 1
  }
  // A title does not end on 'a', 'with', 'of' …
  while (kept.length > 1 && MINOR_WORDS.has(kept[kept.length - 1]!.toLowerCase())) kept.pop()
  return kept
    .map((w, i) => {
      const lower = w.toLowerCase()
      if (i > 0 && MINOR_WORDS.has(lower)) return lower
      // Words the writer capitalised inside ('NYC', 'McCoy') stay as written.
      return w === lower ? lower.charAt(0).toUpperCase() + lower.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)
    })
    .join(' ')
}

/** 'Sad Jazz Piano on a Rainy Night #ab12': the description's own words (mood and genre when it has none), plus the
 * piece's tag so two generations are told apart. */
export const scoreTitle = (score: Pick<Score, 'mood' | 'genre' | 'tag' | 'description'>): string =>
  `${descriptionTitle(score.description) || `${MOOD_LABELS[score.mood]} ${GENRE_LABELS[score.genre]}`} #${score.tag}`

/** '124 BPM · A minor' */
export const scoreSummary = (score: Pick<Score, 'bpm' | 'key' | 'mode'>): string =>
  `${score.bpm} BPM · ${score.key.name} ${MODE_LABELS[score.mode]}`

/**
 * 'Heard: sad · electronic · saxophone lead', then the words it did not use ('Not used: happy'):
 * what the description decided, or null when it named nothing.
 */
export function heardLine(score: Pick<Score, 'heard'>): string | null {
  const { mood, genre, instruments, textures, unused } = score.heard
  const parts = [
    mood && MOOD_LABELS[mood].toLowerCase(),
    genre && GENRE_LABELS[genre].toLowerCase(),
    ...instruments.map((i) => INSTRUMENT_PARTS[i].label),
    ...textures.map((t) => TEXTURE_LABELS[t]),
  ].filter(Boolean)
  const heard = parts.length ? `Heard: ${parts.join(' · ')}` : null
  const notUsed = unused.length ? `Not used: ${unused.join(', ')}` : null
  return heard && notUsed ? `${heard}. ${notUsed}` : (heard ?? notUsed)
}
