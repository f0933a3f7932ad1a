// Pieces rendered by render-pieces.ts: mono ~11 kHz float32 files and a JSON index per set.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const PIECES_DIR = process.env.TEMPO_PIECES_DIR ?? '/tmp/tempo-lab'

export const setFile = (set: string) => join(PIECES_DIR, `${set.replace(/ /g, '_')}.json`)

export function loadRendered(set: string): { name: string; bpm: number; signal: Float32Array; sampleRate: number }[] {
  const index = setFile(set)
  if (!existsSync(index)) throw new Error(`${index} is missing: run npx tsx scripts/tempo-model/render-pieces.ts first`)
  const meta = JSON.parse(readFileSync(index, 'utf8')) as { id: string; rate: number; bpm: number; genre: string }[]
  return meta.map((m) => {
    const b = readFileSync(join(PIECES_DIR, `${m.id}.f32`))
    return {
      name: `${m.genre}/${m.id}`,
      bpm: m.bpm,
      signal: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4),
      sampleRate: m.rate,
    }
  })
}
