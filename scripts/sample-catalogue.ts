/**
 * THE built-in catalogue: the one place each song's id, title, artist, genre, reward and recipe are
 * written. scripts/generate-samples.ts reads it to render the audio and covers and to generate both
 * copies the app needs:
 *
 *   src/lib/catalogue/sample-songs.ts                   the client's catalogue (durations from the MP3s)
 *   supabase/migrations/<timestamp>_catalogue_seed.sql  the server's public.songs (durations, rewards)
 *
 * After an edit here: `npx tsx scripts/generate-samples.ts catalogue` (no audio rendered), or
 * `songs` to re-render the audio as well. scripts/catalogue-agreement.test.ts fails until both are
 * regenerated.
 */
import type { ComposeRequest } from '../workers/composer/index.ts'

export interface CatalogueSong {
  id: string
  title: string
  artist: string
  /** Shown in the app and on the cover. */
  genre: string
  /** CUBE credited per qualifying listen (public.songs.reward on the server). */
  reward: number
  /** How the song is composed: its genre mapped onto the generator's moods and genres. */
  recipe: ComposeRequest
}

export const CATALOGUE: readonly CatalogueSong[] = [
  { id: 'neon-drift', title: 'Neon Drift', artist: 'Synthwave Collective', genre: 'synthwave', reward: 2, recipe: { description: 'Neon Drift: a night drive through a chrome city, synthwave', mood: 'epic', genre: 'electronic', minDurationSeconds: 72 } },
  { id: 'low-tide-memory', title: 'Low Tide Memory', artist: 'Chillwave Coast', genre: 'chillwave', reward: 2, recipe: { description: 'Low Tide Memory: warm chillwave on a hazy beach', mood: 'chill', genre: 'pop', minDurationSeconds: 72 } },
  { id: 'circuit-breaker', title: 'Circuit Breaker', artist: 'Electronic Pulse', genre: 'electronic', reward: 3, recipe: { description: 'Circuit Breaker: a driving electronic pulse', mood: 'energetic', genre: 'electronic', minDurationSeconds: 72 } },
  { id: 'rainy-terminal', title: 'Rainy Terminal', artist: 'Lofi Beats Lab', genre: 'lofi', reward: 2, recipe: { description: 'Rainy Terminal: lofi beats at a rainy bus station', mood: 'chill', genre: 'hip-hop', minDurationSeconds: 72 } },
  { id: 'orbital-haze', title: 'Orbital Haze', artist: 'Ambient Spaces', genre: 'ambient', reward: 5, recipe: { description: 'Orbital Haze: ambient drift above the planet', mood: 'romantic', genre: 'ambient', minDurationSeconds: 72 } },
]

/** Same-origin URLs of a catalogue song's audio and cover (files under public/). */
export const sampleAudioUrl = (id: string): string => `/audio/samples/${id}.mp3`
export const sampleCoverUrl = (id: string): string => `/images/covers/${id}.svg`
