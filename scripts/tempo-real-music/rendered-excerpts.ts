// The excerpts render.ts wrote, as the Node studies read them: the index, and each one decoded.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { remixMixdown } from '../../workers/remix-analysis.ts'
import { decodeWav, type DecodedWav } from '../../workers/wav-decoding.ts'
import type { RenderedExcerpt } from './score.ts'
import { renderDir } from './set.ts'

export const readExcerptIndex = (): RenderedExcerpt[] =>
  JSON.parse(readFileSync(join(renderDir(), 'index.json'), 'utf8')) as RenderedExcerpt[]

export function decodeExcerpt(id: string): DecodedWav {
  const b = readFileSync(join(renderDir(), `${id}.wav`))
  return decodeWav(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
}

/** What the Remix Studio's tempo detector reads of an excerpt: its analysis mixdown. */
export function excerptMixdown(id: string): { x: Float32Array; rate: number } {
  const wav = decodeExcerpt(id)
  return remixMixdown(wav.channels, wav.sampleRate)
}
