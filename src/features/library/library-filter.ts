import type { Song } from '../../lib/catalogue/song.ts'

export const GENRE_CHIPS = ['All', 'Synthwave', 'Chillwave', 'Electronic', 'Lofi', 'Ambient'] as const
export type GenreChip = (typeof GENRE_CHIPS)[number]

/** Search matches title or artist; the genre chip matches the artist text (case-insensitive). */
export function filterSongs(songs: readonly Song[], query: string, chip: GenreChip): Song[] {
  const q = query.trim().toLowerCase()
  const g = chip === 'All' ? '' : chip.toLowerCase()
  return songs.filter((s) => {
    const artist = s.artist.toLowerCase()
    if (g && !artist.includes(g)) return false
    return !q || s.title.toLowerCase().includes(q) || artist.includes(q)
  })
}
