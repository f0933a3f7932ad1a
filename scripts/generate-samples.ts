/**
 * Renders the built-in content with the app's own composer and Tone.js renderer (in headless
 * Chromium) and encodes it with ffmpeg, and generates the code and SQL that describe it:
 *
 *   public/audio/samples/<id>.mp3 + public/images/covers/<id>.svg   the five catalogue songs
 *   public/audio/catalogue/<id>.mp3 + public/images/covers/<id>.svg the 40 discovery songs (64 kbit/s)
 *   public/audio/library/<id>.mp3                                   the Sound Library loops
 *   src/lib/catalogue/sample-songs.ts + supabase/migrations/<timestamp>_catalogue_seed.sql
 *                                     the catalogue for the client and the server, generated from
 *                                     scripts/sample-catalogue.ts (its one source), the MP3s' lengths
 *                                     and their loudness (scripts/catalogue-loudness.json, measured
 *                                     once per file)
 *   src/lib/catalogue/sound-library.ts                              rewritten to match the loops
 *
 * Usage: npx tsx scripts/generate-samples.ts [songs|discovery|library|covers|catalogue ...]   (default: all)
 *   catalogue  only regenerates sample-songs.ts and the seed migration from the catalogue and the
 *              committed MP3s (no rendering, no browser; ffmpeg only to decode an MP3 whose loudness
 *              was not yet measured); `songs` does it too, after encoding.
 * Rendering needs ffmpeg on PATH (Debian: apt-get install -y ffmpeg). The outputs are committed, so
 * the app, its tests and CI never need ffmpeg.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ComposeRequest } from '../workers/composer/index.ts'
import { writeCatalogue } from './catalogue-codegen.ts'
import { coverSvg } from './cover-art.ts'
import { openHarness, type Harness } from './harness-browser.ts'
import type { RenderJob, RenderResult } from './render-harness.ts'
import { ALL_CATALOGUE, CATALOGUE, DISCOVERY_CATALOGUE, sampleAudioUrl, sampleCoverUrl, type CatalogueSong } from './sample-catalogue.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SONG_BITRATE = '128k'
/** The 40 discovery songs: 64 kbit/s keeps them near 0.5 MB a minute (the repository's size). */
const DISCOVERY_BITRATE = '64k'
const LOOP_BITRATE = '160k'

/** How each catalogue song is composed (written in scripts/sample-catalogue.ts). */
export const SONG_RECIPES: Record<string, ComposeRequest> = Object.fromEntries(ALL_CATALOGUE.map((song) => [song.id, song.recipe]))

interface LoopRecipe {
  id: string
  name: string
  category: 'drums' | 'bass' | 'synth' | 'fx'
  job: RenderJob
}

export const LOOP_RECIPES: LoopRecipe[] = [
  {
    id: 'electro-drums',
    name: 'Electro Drum Loop',
    category: 'drums',
    job: {
      kind: 'loop',
      request: { description: 'library electro drums', mood: 'upbeat', genre: 'electronic' },
      section: 'chorus',
      bars: 2,
      parts: ['drums'],
    },
  },
  {
    id: 'boom-bap-beat',
    name: 'Boom Bap Beat',
    category: 'drums',
    job: {
      kind: 'loop',
      request: { description: 'library boom bap', mood: 'upbeat', genre: 'hip-hop' },
      section: 'verse',
      bars: 2,
      parts: ['drums'],
    },
  },
  {
    id: 'saw-bass',
    name: 'Saw Bass Groove',
    category: 'bass',
    job: {
      kind: 'loop',
      request: { description: 'library saw bass', mood: 'energetic', genre: 'electronic' },
      section: 'verse',
      bars: 2,
      parts: ['bass'],
    },
  },
  {
    id: 'walking-bass',
    name: 'Walking Upright Bass',
    category: 'bass',
    job: {
      kind: 'loop',
      request: { description: 'library walking bass', mood: 'upbeat', genre: 'jazz' },
      section: 'verse',
      bars: 2,
      parts: ['bass'],
    },
  },
  {
    id: 'supersaw-chords',
    name: 'Supersaw Chords',
    category: 'synth',
    job: {
      kind: 'loop',
      request: { description: 'library supersaw', mood: 'epic', genre: 'electronic' },
      section: 'chorus',
      bars: 2,
      parts: ['chords', 'pad'],
    },
  },
  {
    id: 'lofi-keys',
    name: 'Lo-fi Keys',
    category: 'synth',
    job: {
      kind: 'loop',
      request: { description: 'library lofi keys', mood: 'chill', genre: 'hip-hop' },
      section: 'verse',
      bars: 1,
      parts: ['chords'],
    },
  },
  { id: 'noise-riser', name: 'Noise Riser', category: 'fx', job: { kind: 'riser', seconds: 4 } },
  {
    id: 'bell-shimmer',
    name: 'Bell Shimmer',
    category: 'fx',
    job: {
      kind: 'loop',
      request: { description: 'library bell shimmer', mood: 'happy', genre: 'ambient' },
      section: 'verse',
      bars: 1,
      parts: ['melody'],
    },
  },
]

function encodeMp3(result: RenderResult, out: string, bitrate: string): void {
  mkdirSync(dirname(out), { recursive: true })
  execFileSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-f',
      's16le',
      '-ar',
      String(result.sampleRate),
      '-ac',
      String(result.channels),
      '-i',
      'pipe:0',
      '-codec:a',
      'libmp3lame',
      '-b:a',
      bitrate,
      '-map_metadata',
      '-1',
      '-id3v2_version',
      '0',
      '-write_xing',
      '1',
      out,
    ],
    { input: Buffer.from(result.pcm, 'base64') },
  )
}

async function render(harness: Harness, job: RenderJob): Promise<RenderResult> {
  return harness.page.evaluate((j) => window.renderJob(j), job)
}

const ORIGIN_COVERS = [
  { id: 'studio-mix', title: 'Studio Mix', artist: '', genre: 'synthwave', subtitle: 'Exported from the CUBE studio' },
  { id: 'mic-take', title: 'Microphone Take', artist: '', genre: 'lofi', subtitle: 'Recorded by you' },
  { id: 'uploaded', title: 'Your Upload', artist: '', genre: 'ambient', subtitle: 'Added from your device' },
]

function writeCovers(): void {
  for (const song of ALL_CATALOGUE) {
    const image = sampleCoverUrl(song.id)
    const out = join(ROOT, 'public', image)
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, coverSvg({ id: song.id, title: song.title, artist: song.artist, genre: song.genre }))
    console.log(`cover  ${image}`)
  }
  // Cover of tracks saved from the AI Generator (src/features/generator/generated-track.ts).
  writeFileSync(
    join(ROOT, 'public/images/covers/ai-generated.svg'),
    coverSvg({ id: 'ai-generated', title: 'AI Generated', artist: 'CUBE AI Generator', genre: 'electronic' }),
  )
  console.log('cover  /images/covers/ai-generated.svg')
  writeOriginCovers()
}

/** Covers that say where a Library track came from (src/domain/collection/save-to-library.ts). */
export function writeOriginCovers(): void {
  for (const cover of ORIGIN_COVERS) {
    writeFileSync(join(ROOT, 'public/images/covers', `${cover.id}.svg`), coverSvg(cover))
    console.log(`cover  /images/covers/${cover.id}.svg`)
  }
}

async function writeSongs(harness: Harness, songs: readonly CatalogueSong[], bitrate: string): Promise<void> {
  for (const song of songs) {
    const result = await render(harness, { kind: 'song', request: song.recipe })
    const url = sampleAudioUrl(song.id)
    const out = join(ROOT, 'public', url)
    encodeMp3(result, out, bitrate)
    console.log(
      `song   ${url}  ${result.seconds.toFixed(2)} s  ${(statSync(out).size / 1e6).toFixed(2)} MB  ${result.summary}  ` +
        `(rendered in ${(result.renderMs / 1000).toFixed(1)} s)`,
    )
  }
}

/** sample-songs.ts and the seed migration, from the catalogue and the MP3s now on disk. */
function writeCatalogueCode(): void {
  const { songs, clientChanged, newSeed } = writeCatalogue(ROOT, console.log)
  for (const s of songs)
    console.log(`entry  ${s.id}  ${s.seconds.toFixed(2)} s  reward ${s.reward}  ${s.loudnessLufs} LUFS  ${s.truePeakDbtp} dBTP`)
  console.log(clientChanged ? 'wrote  src/lib/catalogue/sample-songs.ts' : 'same   src/lib/catalogue/sample-songs.ts')
  console.log(newSeed ? `wrote  supabase/migrations/${newSeed}` : 'same   the newest catalogue seed migration')
}

async function writeLibrary(harness: Harness): Promise<void> {
  const entries: string[] = []
  for (const loop of LOOP_RECIPES) {
    const result = await render(harness, loop.job)
    const url = `/audio/library/${loop.id}.mp3`
    const out = join(ROOT, 'public', url)
    encodeMp3(result, out, LOOP_BITRATE)
    const bpm = result.bpm !== undefined ? `, bpm: ${result.bpm}` : ''
    entries.push(
      `  { id: '${loop.id}', name: '${loop.name}', category: '${loop.category}', url: '${url}'${bpm}, duration: ` +
        `${result.seconds.toFixed(2)} },`,
    )
    console.log(`loop   ${url}  ${result.seconds.toFixed(2)} s  ${(statSync(out).size / 1e3).toFixed(0)} kB`)
  }
  writeFileSync(
    join(ROOT, 'src/lib/catalogue/sound-library.ts'),
    `// The Sound Library: project-owned loops and one-shots rendered by scripts/generate-samples.ts with the
// app's composer and Tone.js renderer, shipped in public/audio/library/. Regenerate with
// \`npx tsx scripts/generate-samples.ts library\` (this file is rewritten by that script).

export type SoundCategory = 'drums' | 'bass' | 'synth' | 'fx'

export interface LibrarySound {
  id: string
  name: string
  category: SoundCategory
  /** Same-origin URL of the audio. */
  url: string
  /** Tempo of a loop; absent for one-shots. */
  bpm?: number
  /** Seconds. */
  duration: number
}

export const SOUND_CATEGORIES: readonly SoundCategory[] = ['drums', 'bass', 'synth', 'fx']

export const SOUND_LIBRARY: readonly LibrarySound[] = [
${entries.join('\n')}
]
`,
  )
}

const what = new Set(process.argv.slice(2))
const all = what.size === 0
if (all || what.has('covers')) writeCovers()
if (all || what.has('songs') || what.has('discovery') || what.has('library')) {
  const harness = await openHarness()
  try {
    if (all || what.has('songs')) await writeSongs(harness, CATALOGUE, SONG_BITRATE)
    if (all || what.has('discovery')) await writeSongs(harness, DISCOVERY_CATALOGUE, DISCOVERY_BITRATE)
    if (all || what.has('library')) await writeLibrary(harness)
  } finally {
    await harness.close()
  }
}
if (all || what.has('songs') || what.has('discovery') || what.has('catalogue')) writeCatalogueCode()
