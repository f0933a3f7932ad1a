import type { CatalogueRow } from '../../backend/publishing.ts'
import { formatDuration, type Song } from '../../lib/catalogue/song.ts'

export const DEFAULT_COVER = '/images/covers/ai-generated.svg'

/** A server catalogue row as the player and the song lists take it. */
export const catalogueSong = (row: CatalogueRow): Song => ({
  id: row.id,
  title: row.title,
  artist: row.artist,
  duration: formatDuration(Number(row.duration_seconds)),
  seconds: Number(row.duration_seconds),
  image: row.cover_url ?? DEFAULT_COVER,
  audioUrl: row.audio_url ?? '',
  ...(row.genre ? { genre: row.genre } : {}),
  reward: row.reward,
  ...(row.loudness_lufs !== null ? { loudnessLufs: row.loudness_lufs } : {}),
  ...(row.true_peak_dbtp !== null ? { truePeakDbtp: row.true_peak_dbtp } : {}),
})
