// The real-music tempo set: its manifest, where render.ts puts the audio and which excerpts it takes.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const REAL_MUSIC_DIR = 'tests/fixtures/tempo-real-music'

export interface RealPiece {
  file: string
  title: string
  composer: string
  /** Who made the MIDI file (the sequencer or typesetter). */
  arranger: string
  source: string
  licence: string
  /** Quarter notes per minute, the file's tempo (or its median, when `flattened`). */
  bpm: number
  flattened: boolean
  timeSignature: string
  drums: boolean
  split: 'tuning' | 'held-out'
}

export interface Excerpt {
  id: string
  piece: string
  start: number
  seconds: number
}

export const loadManifest = (): RealPiece[] =>
  (JSON.parse(readFileSync(join(REAL_MUSIC_DIR, 'manifest.json'), 'utf8')) as { pieces: RealPiece[] }).pieces

/** Gitignored; the browser study fetches the WAVs from here through the test server. */
export const renderDir = () => process.env.TEMPO_REAL_MUSIC_DIR ?? 'reports/tempo-real-music'

export const EXCERPT_SECONDS = 30

/** Two 30 s excerpts of a long piece (a tenth and a half of the way in: other strains, other textures), one of a short one. */
export function excerptsOf(piece: RealPiece, duration: number): Excerpt[] {
  const name = piece.file.replace(/\.mid$/, '')
  const starts = duration >= 3 * EXCERPT_SECONDS ? [0.1 * duration, 0.5 * duration] : [Math.min(2, duration * 0.05)]
  return starts.map((s, i) => ({
    id: `${name}-${i + 1}`,
    piece: piece.file,
    start: Math.round(s * 10) / 10,
    seconds: Math.min(EXCERPT_SECONDS, duration - s),
  }))
}
