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
import type { ComposeRequest, Genre, Mood } from '../workers/composer/index.ts'

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
  {
    id: 'neon-drift',
    title: 'Neon Drift',
    artist: 'Synthwave Collective',
    genre: 'synthwave',
    reward: 2,
    recipe: {
      description: 'Neon Drift: a night drive through a chrome city, synthwave',
      mood: 'epic',
      genre: 'electronic',
      minDurationSeconds: 72,
    },
  },
  {
    id: 'low-tide-memory',
    title: 'Low Tide Memory',
    artist: 'Chillwave Coast',
    genre: 'chillwave',
    reward: 2,
    recipe: { description: 'Low Tide Memory: warm chillwave on a hazy beach', mood: 'chill', genre: 'pop', minDurationSeconds: 72 },
  },
  {
    id: 'circuit-breaker',
    title: 'Circuit Breaker',
    artist: 'Electronic Pulse',
    genre: 'electronic',
    reward: 3,
    recipe: { description: 'Circuit Breaker: a driving electronic pulse', mood: 'energetic', genre: 'electronic', minDurationSeconds: 72 },
  },
  {
    id: 'rainy-terminal',
    title: 'Rainy Terminal',
    artist: 'Lofi Beats Lab',
    genre: 'lofi',
    reward: 2,
    recipe: { description: 'Rainy Terminal: lofi beats at a rainy bus station', mood: 'chill', genre: 'hip-hop', minDurationSeconds: 72 },
  },
  {
    id: 'orbital-haze',
    title: 'Orbital Haze',
    artist: 'Ambient Spaces',
    genre: 'ambient',
    reward: 5,
    recipe: { description: 'Orbital Haze: ambient drift above the planet', mood: 'romantic', genre: 'ambient', minDurationSeconds: 72 },
  },
]

/**
 * The discovery catalogue: 40 more songs across all nine of the composer's genres, 1–3 minutes
 * each, so recommendations and the public pages have something to rank. Rendered like the samples
 * (at a lower bitrate, DISCOVERY_BITRATE in generate-samples.ts) into public/audio/catalogue/; in
 * the server's catalogue and the client's CATALOGUE_SONGS, not in every user's Library.
 * Row: title, artist, genre, mood, minimum length in seconds, reward.
 */
const DISCOVERY_ROWS: readonly [string, string, Genre, Mood, number, number][] = [
  ['Chrome Horizon', 'Grid Runners', 'electronic', 'energetic', 75, 3],
  ['Data Rain', 'Grid Runners', 'electronic', 'dark', 95, 2],
  ['Neon Pulse Protocol', 'Voltage Saints', 'electronic', 'upbeat', 130, 3],
  ['Subnet Sunrise', 'Voltage Saints', 'electronic', 'happy', 62, 2],
  ['Holo Hearts', 'Pixel Bloom', 'pop', 'happy', 70, 2],
  ['Midnight Arcade', 'Pixel Bloom', 'pop', 'romantic', 88, 2],
  ['Sugar Static', 'Candy Circuit', 'pop', 'upbeat', 65, 2],
  ['Glass City Love', 'Candy Circuit', 'pop', 'romantic', 110, 3],
  ['Overclocked', 'Iron Relay', 'rock', 'energetic', 80, 3],
  ['Burnt Fuse Highway', 'Iron Relay', 'rock', 'epic', 140, 3],
  ['Static Riot', 'The Rust Cables', 'rock', 'dark', 72, 2],
  ['Rooftop Antenna', 'The Rust Cables', 'rock', 'upbeat', 66, 2],
  ['Back Alley Cipher', 'MC Bitrate', 'hip-hop', 'dark', 84, 2],
  ['Cold Cache', 'MC Bitrate', 'hip-hop', 'chill', 100, 2],
  ['Block Party Beacon', 'Lo Ping', 'hip-hop', 'upbeat', 68, 3],
  ['Slow Loading', 'Lo Ping', 'hip-hop', 'sad', 120, 2],
  ['Blue Terminal', 'Quantum Quartet', 'jazz', 'chill', 90, 3],
  ['Smoke and Servers', 'Quantum Quartet', 'jazz', 'mysterious', 150, 3],
  ['After Hours Uplink', 'Velvet Packet', 'jazz', 'romantic', 76, 2],
  ['Swing Voltage', 'Velvet Packet', 'jazz', 'happy', 64, 2],
  ['Copper Wire Ballad', 'Analog Hollow', 'folk', 'sad', 82, 2],
  ['Campfire Firmware', 'Analog Hollow', 'folk', 'happy', 70, 2],
  ['River of Cables', 'Wren & Relay', 'folk', 'chill', 105, 3],
  ['Harvest Moon Server', 'Wren & Relay', 'folk', 'romantic', 62, 2],
  ['Sonata for Silicon', 'Orchestra Null', 'classical', 'epic', 145, 5],
  ['Nocturne in Neon', 'Orchestra Null', 'classical', 'romantic', 92, 3],
  ['Clockwork Prelude', 'String Theory Ensemble', 'classical', 'mysterious', 74, 3],
  ['Winter Mainframe', 'String Theory Ensemble', 'classical', 'sad', 118, 3],
  ['Deep Orbit', 'Ambient Spaces', 'ambient', 'chill', 125, 5],
  ['Cloud Memory', 'Soft Vector', 'ambient', 'romantic', 86, 4],
  ['Signal Lost', 'Soft Vector', 'ambient', 'mysterious', 155, 5],
  ['Aurora Buffer', 'Ambient Spaces', 'ambient', 'happy', 66, 4],
  ['Core Meltdown', 'Black Silicon', 'metal', 'energetic', 78, 3],
  ['Firewall of Iron', 'Black Silicon', 'metal', 'epic', 112, 3],
  ['Kernel Panic', 'Doom Protocol', 'metal', 'dark', 64, 3],
  ['Night Shift at the Foundry', 'Doom Protocol', 'metal', 'mysterious', 96, 2],
  ['Laser Tide', 'Voltage Saints', 'electronic', 'epic', 150, 3],
  ['Paper Lanterns Online', 'Pixel Bloom', 'pop', 'chill', 78, 2],
  ['Concrete Garden', 'Lo Ping', 'hip-hop', 'happy', 72, 2],
  ['Moonlit Terminal Waltz', 'Quantum Quartet', 'jazz', 'sad', 98, 3],
]

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export const DISCOVERY_CATALOGUE: readonly CatalogueSong[] = DISCOVERY_ROWS.map(([title, artist, genre, mood, seconds, reward]) => ({
  id: slug(title),
  title,
  artist,
  genre,
  reward,
  recipe: { description: `${title}: ${mood} ${genre} by ${artist}`, mood, genre, minDurationSeconds: seconds },
}))

/** Every built-in song, samples first: what the server's public.songs seed holds. */
export const ALL_CATALOGUE: readonly CatalogueSong[] = [...CATALOGUE, ...DISCOVERY_CATALOGUE]

const discoveryIds = new Set(DISCOVERY_CATALOGUE.map((s) => s.id))

/** Same-origin URLs of a catalogue song's audio and cover (files under public/). */
export const sampleAudioUrl = (id: string): string => (discoveryIds.has(id) ? `/audio/catalogue/${id}.mp3` : `/audio/samples/${id}.mp3`)
export const sampleCoverUrl = (id: string): string => `/images/covers/${id}.svg`
