/**
 * Each catalogue song's loudness, measured once per MP3 and kept in scripts/catalogue-loudness.json
 * with the SHA-256 of the file it was measured on, so regenerating the catalogue measures only the
 * files that changed (and scripts/catalogue-agreement.test.ts fails on a stale entry).
 *
 *   readCatalogueLoudness(root)                 the stored measurements by song id
 *   isCurrent(entry, mp3Bytes)                  the entry was measured on exactly these bytes
 *   measureCatalogueLoudness(root, songs, opts) measures the songs whose entry is missing or stale
 *                                               (all with { all: true }) and rewrites the file
 *
 * Decoding: ffmpeg (the tool scripts/generate-samples.ts encodes these files with) to 32-bit float
 * PCM at the file's own rate, then dsp/song-loudness.ts (BS.1770-4) in Node.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { measureSongLoudness } from '../dsp/song-loudness.ts'
import { parseMp3 } from '../workers/mp3-frames.ts'
import { sampleAudioUrl, type CatalogueSong } from './sample-catalogue.ts'

export const LOUDNESS_FILE = 'scripts/catalogue-loudness.json'

export interface CatalogueLoudness {
  sha256: string
  loudnessLufs: number | null
  truePeakDbtp: number | null
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

export function readCatalogueLoudness(root: string): Record<string, CatalogueLoudness> {
  const file = join(root, LOUDNESS_FILE)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, CatalogueLoudness>) : {}
}

export const isCurrent = (entry: CatalogueLoudness | undefined, mp3: Uint8Array): entry is CatalogueLoudness =>
  entry !== undefined && entry.sha256 === sha256(mp3)

/** The MP3 decoded to one Float32Array per channel (ffmpeg; its MP3 decoder trims the encoder delay as browsers do). */
export function decodeMp3(file: string): { channels: Float32Array[]; sampleRate: number } {
  const stream = parseMp3(new Uint8Array(readFileSync(file)))
  if (!stream) throw new Error(`${file} is not an MP3 this project can read`)
  const count = stream.channels
  let raw: Buffer
  try {
    raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-acodec', 'pcm_f32le', '-'], { maxBuffer: 1 << 30 })
  } catch (error) {
    throw new Error(`Decoding ${file} needs ffmpeg on PATH (Debian: apt-get install -y ffmpeg): ${String(error)}`)
  }
  const interleaved = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4)
  const frames = Math.floor(interleaved.length / count)
  const channels = Array.from({ length: count }, () => new Float32Array(frames))
  for (let i = 0; i < frames; i++) for (let c = 0; c < count; c++) channels[c]![i] = interleaved[i * count + c]!
  return { channels, sampleRate: stream.sampleRate }
}

export function measureCatalogueLoudness(
  root: string,
  songs: readonly CatalogueSong[],
  opts: { all?: boolean; log?: (line: string) => void } = {},
): Record<string, CatalogueLoudness> {
  const stored = readCatalogueLoudness(root)
  const out: Record<string, CatalogueLoudness> = {}
  for (const song of songs) {
    const file = join(root, 'public', sampleAudioUrl(song.id))
    const bytes = new Uint8Array(readFileSync(file))
    const entry = stored[song.id]
    if (!opts.all && isCurrent(entry, bytes)) {
      out[song.id] = entry
      continue
    }
    const started = performance.now()
    const { channels, sampleRate } = decodeMp3(file)
    const measured = measureSongLoudness(channels, sampleRate)
    out[song.id] = { sha256: sha256(bytes), ...measured }
    opts.log?.(
      `loud   ${song.id}  ${measured.loudnessLufs} LUFS  ${measured.truePeakDbtp} dBTP  ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
    )
  }
  const text = `${JSON.stringify(out, null, 2)}\n`
  if (!existsSync(join(root, LOUDNESS_FILE)) || readFileSync(join(root, LOUDNESS_FILE), 'utf8') !== text)
    writeFileSync(join(root, LOUDNESS_FILE), text)
  return out
}
