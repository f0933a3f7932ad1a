import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATALOGUE_SONGS, DISCOVERY_SONGS, SAMPLE_SONGS } from '../src/lib/catalogue/sample-songs.ts'
import {
  CLIENT_MODULE,
  GENERATED_HEADER,
  MIGRATIONS_DIR,
  catalogueWithDurations,
  clientModuleSource,
  latestSeedMigration,
  seedMigrationSource,
  type SongWithDuration,
} from './catalogue-codegen.ts'
import { isCurrent, readCatalogueLoudness } from './catalogue-loudness.ts'
import { ALL_CATALOGUE, CATALOGUE, DISCOVERY_CATALOGUE, sampleAudioUrl } from './sample-catalogue.ts'
import { formatDuration } from '../src/lib/catalogue/song.ts'
import { migratedPglite } from './support/migrated-pglite.ts'

// The catalogue is written once (scripts/sample-catalogue.ts); the client module and the SQL seed
// are generated from it and from the MP3s' real lengths. These check that the committed copies are
// what the generator makes today, and that the client and the server (all migrations applied to a
// real PostgreSQL) say the same about every song.

const ROOT = join(import.meta.dirname, '..')
/** One MP3 frame at 44.1 kHz is 1152 / 44100 ≈ 0.026 s: a stored length within 0.05 s is the file's own. */
const FRAME_TOLERANCE = 0.05

let mp3: SongWithDuration[]
let db: PGlite
let server: {
  id: string
  title: string
  artist: string
  duration_seconds: string | number
  reward: number
  slug: string
  genre: string
  cover_url: string
  audio_url: string
  loudness_lufs: number | null
  true_peak_dbtp: number | null
}[]

beforeAll(async () => {
  mp3 = catalogueWithDurations(ROOT)
  db = await migratedPglite()
  server = (
    await db.query<(typeof server)[0]>(
      'select id, title, artist, duration_seconds, reward, slug, genre, cover_url, audio_url, loudness_lufs, true_peak_dbtp ' +
        'from public.songs order by id',
    )
  ).rows
}, 120_000)
afterAll(() => db?.close())

describe('the catalogue has one source', () => {
  it('the committed client module and newest seed migration are exactly what the generator writes', () => {
    expect(readFileSync(join(ROOT, CLIENT_MODULE), 'utf8')).toBe(clientModuleSource(mp3))
    const seed = latestSeedMigration(ROOT)
    expect(seed).toBeDefined()
    const seedSql = readFileSync(join(ROOT, MIGRATIONS_DIR, seed!), 'utf8')
    expect(seedSql).toBe(seedMigrationSource(mp3))
    expect(seedSql.startsWith(`-- ${GENERATED_HEADER}\n`)).toBe(true)
  })

  it('each client length is its MP3’s decoded length (within one frame), shown as the player’s clock shows it', () => {
    expect(SAMPLE_SONGS.map((s) => s.id)).toEqual(CATALOGUE.map((s) => s.id))
    expect(DISCOVERY_SONGS.map((s) => s.id)).toEqual(DISCOVERY_CATALOGUE.map((s) => s.id))
    expect(CATALOGUE_SONGS).toHaveLength(45)
    for (const [i, song] of CATALOGUE_SONGS.entries()) {
      expect(Math.abs(song.seconds! - mp3[i]!.seconds), song.id).toBeLessThanOrEqual(FRAME_TOLERANCE)
      expect(song.duration, song.id).toBe(formatDuration(mp3[i]!.seconds))
      const { title, artist, genre, reward } = ALL_CATALOGUE[i]!
      expect(song, song.id).toMatchObject({ title, artist, genre, reward })
    }
  })

  it('the server’s public.songs (after every migration) agrees with the client: same ids, durations within one frame, same rewards', () => {
    expect(server.map((s) => s.id)).toEqual(CATALOGUE_SONGS.map((s) => s.id).sort())
    for (const row of server) {
      const client = CATALOGUE_SONGS.find((s) => s.id === row.id)!
      // The song page (/song/{slug}) and discovery read these from the server.
      expect({ slug: row.slug, genre: row.genre, cover_url: row.cover_url, audio_url: row.audio_url }, row.id).toEqual({
        slug: client.id,
        genre: client.genre,
        cover_url: client.image,
        audio_url: client.audioUrl,
      })
      // numeric(8,3): the driver may answer it as text.
      const stored = Number(row.duration_seconds)
      expect(Math.abs(stored - client.seconds!), row.id).toBeLessThanOrEqual(FRAME_TOLERANCE)
      expect(Math.abs(stored - mp3.find((s) => s.id === row.id)!.seconds), row.id).toBeLessThanOrEqual(FRAME_TOLERANCE)
      expect(row.reward, row.id).toBe(client.reward)
      expect({ title: row.title, artist: row.artist }).toEqual({ title: client.title, artist: client.artist })
      // public.songs.loudness_lufs is real (4-byte float): equal to the client's to its precision.
      expect(row.loudness_lufs, row.id).toBeCloseTo(client.loudnessLufs!, 4)
      expect(row.true_peak_dbtp, row.id).toBeCloseTo(client.truePeakDbtp!, 4)
    }
  })

  it('every song’s loudness was measured on the MP3 that ships (scripts/catalogue-loudness.json is not stale)', () => {
    const loudness = readCatalogueLoudness(ROOT)
    for (const song of ALL_CATALOGUE) {
      const bytes = new Uint8Array(readFileSync(join(ROOT, 'public', sampleAudioUrl(song.id))))
      expect(isCurrent(loudness[song.id], bytes), `${song.id}: run npx tsx scripts/measure-catalogue-loudness.ts`).toBe(true)
      const client = CATALOGUE_SONGS.find((s) => s.id === song.id)!
      // A rendered song's loudness is a real programme level; the renderer keeps its peaks under full scale.
      expect(client.loudnessLufs, song.id).toBeGreaterThan(-30)
      expect(client.loudnessLufs, song.id).toBeLessThan(-6)
      expect(client.truePeakDbtp, song.id).toBeLessThan(0)
    }
    expect(Object.keys(loudness).sort()).toEqual(ALL_CATALOGUE.map((s) => s.id).sort())
  })
})
