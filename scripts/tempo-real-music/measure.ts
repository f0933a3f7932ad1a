/**
 * Our tempo detector on the rendered real-music set (render.ts first), the Remix Studio's path:
 * the analysis mixdown (remixMixdown) then detectTempo, per split: hits strictly within ±1 BPM of
 * the file's tempo, octave errors (double or half) apart, and each miss.
 *
 *   npx tsx scripts/tempo-real-music/measure.ts
 */
import { detectTempo } from '../../dsp/tempo-detect.ts'
import { remixMixdown } from '../../workers/remix-analysis.ts'
import { decodeExcerpt, readExcerptIndex } from './rendered-excerpts.ts'
import { scoreTempos } from './score.ts'

const index = readExcerptIndex()
const found = new Map<string, number>()
let ms = 0
for (const ex of index) {
  const wav = decodeExcerpt(ex.id)
  const t0 = performance.now()
  const { x, rate } = remixMixdown(wav.channels, wav.sampleRate)
  found.set(ex.id, detectTempo(x, rate).bpm)
  ms += performance.now() - t0
}
for (const line of scoreTempos(index, found)) console.log(line)
console.log(`${(ms / index.length).toFixed(0)} ms per 30 s excerpt`)
