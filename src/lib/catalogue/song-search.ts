/**
 * Search over songs by title, artist and genre, for the Library, the artist pages and every song
 * picker (pure: the domain's song index feeds it, src/ui's picker uses it too).
 *
 *   foldText('Beyoncé  Café') → 'beyonce cafe'   case, diacritics and spacing folded away
 *   searchSongs(songs, query) → the songs every word of the query matches, best first
 *   artistSlug('Grid Runners') → 'grid-runners'   the catalogue artist page's address
 */
import type { Song } from './song.ts'

/** Lower case without diacritics (NFKD, combining marks dropped), runs of non-letters as one space. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** 'Grid Runners' → 'grid-runners'; never empty. */
export function artistSlug(artist: string): string {
  return foldText(artist).replace(/ /g, '-') || 'unknown'
}

// How well one query word matches one field: the whole field, the field's start, a word's start, inside a word.
const FIELD_WEIGHT = { title: 4, artist: 2, genre: 1 } as const
type Field = keyof typeof FIELD_WEIGHT

function wordScore(field: string, word: string): number {
  if (field === word) return 10
  if (field.startsWith(word)) return 7
  if (field.includes(` ${word}`)) return 5
  if (field.includes(word)) return 2
  return 0
}

interface Folded {
  title: string
  artist: string
  genre: string
}

const foldedCache = new WeakMap<Song, Folded>()
function folded(song: Song): Folded {
  let f = foldedCache.get(song)
  if (!f) {
    f = { title: foldText(song.title), artist: foldText(song.artist), genre: foldText(song.genre ?? '') }
    foldedCache.set(song, f)
  }
  return f
}

/**
 * How well `song` answers `query` (0: it does not). Every word must match the title, the artist or
 * the genre; each word counts its best field (title over artist over genre, whole over start over
 * inside); the whole query as the title (or its start) and as the whole artist name earn a bonus,
 * so "neon d" puts "Neon Drift" before "Drift of Neon".
 */
export function songScore(song: Song, query: string): number {
  const q = foldText(query)
  if (!q) return 1
  const f = folded(song)
  let total = 0
  for (const word of q.split(' ')) {
    let best = 0
    for (const field of Object.keys(FIELD_WEIGHT) as Field[]) best = Math.max(best, wordScore(f[field], word) * FIELD_WEIGHT[field])
    if (best === 0) return 0
    total += best
  }
  if (f.title === q) total += 100
  else if (f.title.startsWith(q)) total += 50
  if (f.artist === q) total += 10
  return total
}

/**
 * The items whose song matches every word of `query`, best first (ties keep the given order); an
 * empty query keeps them all. `songOf` reads the song of an item (the item itself by default).
 */
export function searchSongs<T>(items: readonly T[], query: string, songOf: (item: T) => Song = (item) => item as Song): T[] {
  if (!foldText(query)) return [...items]
  return items
    .map((item, i) => ({ item, i, score: songScore(songOf(item), query) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => r.item)
}
