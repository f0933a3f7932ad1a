import type { CatalogueRow } from '../../src/backend/publishing.ts'

/** A published song as the server's catalogue answers it (one user's upload), for tests of every song a listener can play. */
export const catalogueRow = (over: Partial<CatalogueRow> = {}): CatalogueRow => ({
  id: 'pub-1',
  title: 'Basement Tapes',
  artist: 'kai',
  duration_seconds: 61.5,
  loudness_lufs: null,
  true_peak_dbtp: null,
  reward: 1,
  slug: 'basement-tapes',
  genre: 'rock',
  owner_id: 'u-kai',
  cover_url: null,
  audio_url: '/storage/v1/object/public/songs/u-kai/a.webm',
  created_at: '2026-11-26T00:00:00Z',
  remix_of: null,
  ...over,
})
