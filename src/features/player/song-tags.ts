/**
 * The tags Now Playing shows under a song: its real metadata only — the genre, then the mood of a
 * generated track — never words of the artist's name ('Chillwave Coast' gives 'chillwave' because
 * that is the song's genre, never 'coast'). Tags are lower-case ids; the page capitalises them.
 */
import type { Song } from '../../lib/catalogue/song.ts'

const tagOf = (value: string | undefined): string | null => {
  const t = typeof value === 'string' ? value.trim().toLowerCase().replace(/\s+/g, ' ') : ''
  return t ? t : null
}

export function songTags(song: Pick<Song, 'genre' | 'mood'> | null | undefined): string[] {
  if (!song) return []
  const tags: string[] = []
  for (const value of [song.genre, song.mood]) {
    const t = tagOf(value)
    if (t && !tags.includes(t)) tags.push(t)
  }
  return tags
}
