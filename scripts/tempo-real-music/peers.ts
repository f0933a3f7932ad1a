/**
 * Two more detectors on the rendered real-music set (render.ts first), scored as ours is: essentia.js's
 * RhythmExtractor2013 (the multifeature beat tracker, 40–208 BPM) and PercivalBpmEstimator, and
 * music-tempo (BeatRoot's agents). essentia.js is AGPL-3.0, so it is not a dependency of this project:
 * install both outside it and point TEMPO_PEERS at that folder.
 *
 *   npm install --prefix /tmp/tempo-peers --no-audit --no-fund essentia.js@0.1.3 music-tempo@1.0.3
 *   TEMPO_PEERS=/tmp/tempo-peers npx tsx scripts/tempo-real-music/peers.ts
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { decodeExcerpt, readExcerptIndex } from './rendered-excerpts.ts'
import { scoreTempos } from './score.ts'

interface EssentiaVector {
  delete(): void
}
interface Essentia {
  arrayToVector(x: Float32Array): EssentiaVector
  RhythmExtractor2013(signal: EssentiaVector, maxTempo: number, method: string, minTempo: number): { bpm: number }
  PercivalBpmEstimator(signal: EssentiaVector): { bpm: number }
}
type MusicTempo = new (audio: number[]) => { tempo: string | number }

const peers = process.env.TEMPO_PEERS
if (!peers) {
  console.error('Set TEMPO_PEERS to the folder the two packages were installed in (see the header of this file).')
  process.exit(1)
}
const require = createRequire(join(peers, 'node_modules', '.'))
const { EssentiaWASM, Essentia: EssentiaCore } = require('essentia.js') as {
  EssentiaWASM: { EssentiaWASM?: unknown }
  Essentia: new (wasm: unknown) => Essentia
}
const MusicTempoClass = require('music-tempo') as MusicTempo
const essentia = new EssentiaCore(EssentiaWASM.EssentiaWASM ?? EssentiaWASM)

const index = readExcerptIndex()
const found = {
  'essentia.js RhythmExtractor2013 (multifeature, 40–208)': new Map<string, number>(),
  'essentia.js PercivalBpmEstimator': new Map<string, number>(),
  'music-tempo (BeatRoot)': new Map<string, number>(),
}
const [rhythm, percival, beatRoot] = Object.values(found)
for (const ex of index) {
  const x = decodeExcerpt(ex.id).channels[0]!
  const signal = essentia.arrayToVector(x)
  rhythm!.set(ex.id, essentia.RhythmExtractor2013(signal, 208, 'multifeature', 40).bpm)
  percival!.set(ex.id, essentia.PercivalBpmEstimator(signal).bpm)
  signal.delete()
  beatRoot!.set(ex.id, Number(new MusicTempoClass(Array.from(x)).tempo))
}
for (const [name, tempos] of Object.entries(found)) {
  console.log(`== ${name}`)
  for (const line of scoreTempos(index, tempos)) console.log(line)
}
