/**
 * Our tempo detector on the rendered real-music set (render.ts first), the Remix Studio's path:
 * the analysis mixdown (remixMixdown) then detectTempo, per split: hits strictly within ±1 BPM of
 * the file's tempo, octave errors (double or half) apart, and each miss.
 *
 *   npx tsx scripts/tempo-real-music/measure.ts
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { detectTempo } from '../../dsp/tempo-detect.ts'
import { remixMixdown } from '../../workers/remix-analysis.ts'
import { decodeWav } from '../../workers/wav-decoding.ts'
import { renderDir } from './set.ts'
import { scoreTempos, type RenderedExcerpt } from './score.ts'

const index = JSON.parse(readFileSync(join(renderDir(), 'index.json'), 'utf8')) as RenderedExcerpt[]
const found = new Map<string, number>()
let ms = 0
for (const ex of index) {
  const b = readFileSync(join(renderDir(), `${ex.id}.wav`))
  const wav = decodeWav(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
  const t0 = performance.now()
  const { x, rate } = remixMixdown(wav.channels, wav.sampleRate)
  found.set(ex.id, detectTempo(x, rate).bpm)
  ms += performance.now() - t0
}
for (const line of scoreTempos(index, found)) console.log(line)
console.log(`${(ms / index.length).toFixed(0)} ms per 30 s excerpt`)
