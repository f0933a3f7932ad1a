/**
 * Fits the tempo model's weights (dsp/tempo-octave-model.ts): for each training
 * piece the detector's candidates (the comb's tempo and its metrical relatives) are scored on
 * their metrical features, and a pairwise logistic regression learns to rank the true tempo above
 * each other candidate. Prints the weights and every set's accuracy (strictly within ±1 BPM).
 *
 *   npx tsx scripts/tempo-model/render-pieces.ts      # once: real-renderer pieces and the catalogue, in Chromium
 *   npx tsx scripts/tempo-model/fit.ts [--save] [--held-out]   # --save writes the weights into the kernel
 *
 * Training: 45 composer pieces rendered by the test synth (workers/composer-test-render.ts,
 * 'remix tempo piece'), 63 rendered by the app's renderer ('real tempo training') and the rhythm
 * sweep below. Checked, never fitted on: 'held-out tempo check' (test synth), 'real tempo check'
 * (app renderer, 45), the 45 catalogue songs, the rhythm check sweep and the real-music tuning half
 * (docs/tempo-real-music.md; its held-out half with --held-out).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { FEATURE_NAMES } from '../../dsp/metrical-features.ts'
import { arpeggio, backbeat, RHYTHM_SR, shuffle, tripletArpeggio } from '../../dsp/rhythm-test-signals.ts'
import { tempoCandidates } from '../../dsp/tempo-detect.ts'
import { composerPieces, renderScore } from '../../workers/composer-test-render.ts'
import { loadRendered, setFile } from './pieces.ts'
import { excerptMixdown, readExcerptIndex } from '../tempo-real-music/rendered-excerpts.ts'

interface Piece {
  name: string
  bpm: number
  signal: Float32Array
  sampleRate: number
}

const TRAIN = ['synth:remix tempo piece', 'real:real tempo training', 'rhythm:sweep']
const CHECK = [
  'synth:held-out tempo check',
  'real:real tempo check',
  'real:catalogue',
  'rhythm:check sweep',
  // The same grooves in triplets (a 12/8 shuffle, a triplet arpeggio), every 4 BPM from 59: checked
  // only (docs/tempo-real-music.md, "Triplets and 12/8": fitting them cost real music).
  'rhythm:ternary check',
  // Real music (docs/tempo-real-music.md, after its render.ts): the tuning half; the held-out half
  // only with --held-out, to be looked at once for a model already chosen.
  'music:tuning',
  ...(process.argv.includes('--held-out') ? ['music:held-out'] : []),
]
/**
 * The unit tests' rhythm signals (dsp/rhythm-test-signals.ts: a backbeat and a drumless arpeggio,
 * whose beat a listener never doubts) across the detector's range, weighted by TEMPO_FIT_RHYTHM
 * (0.5 unless set, the shipped fit; 0 leaves them out, as the fits before 2026-11-27 did):
 * fitted every 4 BPM from 58, checked every 4 BPM from 60, so the checked tempi (and
 * dsp/tempo-detect.test.ts's 72, 96, 100 and 160) are never fitted on; their triplet forms
 * (shuffle, tripletArpeggio) are checked every 4 BPM from 59.
 */
const RHYTHM_WEIGHT = Number(process.env.TEMPO_FIT_RHYTHM ?? 0.5)
const rhythmSweep = (from: number): Piece[] =>
  Array.from({ length: 31 }, (_, i) => from + 4 * i)
    .filter((bpm) => from !== 58 || ![70, 72, 96, 100, 160].includes(bpm))
    .flatMap((bpm) =>
      Object.entries(from === 59 ? { shuffle, tripletArpeggio } : { backbeat, arpeggio }).map(([name, signal]) => ({
        name: `${name} ${bpm}`,
        bpm,
        signal: signal(bpm),
        sampleRate: RHYTHM_SR,
      })),
    )
/** L2 penalty on the standardised weights. */
const LAMBDA = Number(process.env.TEMPO_FIT_LAMBDA ?? 0.0001)

function load(set: string): Piece[] {
  const [kind, name] = set.split(':') as [string, string]
  if (kind === 'rhythm') return rhythmSweep(name === 'sweep' ? 58 : name === 'check sweep' ? 60 : 59)
  if (kind === 'music')
    return readExcerptIndex()
      .filter((e) => e.split === name)
      .map((e) => {
        const { x, rate } = excerptMixdown(e.id)
        return { name: e.id, bpm: e.bpm, signal: x, sampleRate: rate }
      })
  if (kind === 'synth')
    return composerPieces(45, name).map((s) => ({ name: `${s.genre}/${s.mood}`, bpm: s.bpm, signal: renderScore(s), sampleRate: 8000 }))
  return loadRendered(name)
}

type Featured = { name: string; bpm: number; cands: { bpm: number; features: number[] }[] }[]
const featured = new Map<string, Featured>()
// Lab iterations on the fit alone can reuse the features: TEMPO_FIT_CACHE=<file>.
const cache = process.env.TEMPO_FIT_CACHE
if (cache && existsSync(cache)) for (const [k, v] of JSON.parse(readFileSync(cache, 'utf8')) as [string, Featured][]) featured.set(k, v)
else
  for (const set of [...TRAIN, ...CHECK]) {
    if (CHECK.includes(set) && set.startsWith('real:') && !existsSync(setFile(set.slice(5)))) {
      console.log(`check ${set}: not rendered, skipped`)
      continue
    }
    featured.set(
      set,
      load(set).map((p) => ({ name: p.name, bpm: p.bpm, cands: tempoCandidates(p.signal, p.sampleRate) })),
    )
  }

if (cache && !existsSync(cache)) writeFileSync(cache, JSON.stringify([...featured]))
// Lab: TEMPO_FIT_DROP=<i,j,…> fits without those features (weights 0).
const drop = new Set((process.env.TEMPO_FIT_DROP ?? '').split(',').filter(Boolean).map(Number))
for (const pieces of featured.values()) for (const p of pieces) for (const c of p.cands) for (const i of drop) c.features[i] = 0

// Pairs: the candidate nearest the truth (when within ±1 BPM) minus each other candidate.
const pairs: { x: number[]; w: number }[] = []
for (const set of TRAIN) {
  const weight = set.startsWith('rhythm:') ? RHYTHM_WEIGHT : 1
  if (!weight) continue
  for (const piece of featured.get(set)!) {
    const truth = piece.cands.find((c) => Math.abs(c.bpm - piece.bpm) <= 1)
    if (!truth) continue
    for (const c of piece.cands) if (c !== truth) pairs.push({ x: truth.features.map((v, i) => v - c.features[i]!), w: weight })
  }
}
const d = FEATURE_NAMES.length
const total = pairs.reduce((a, p) => a + p.w, 0)
const sd = Array.from({ length: d }, (_, i) => Math.sqrt(pairs.reduce((a, p) => a + p.w * p.x[i]! ** 2, 0) / total) || 1)
const w = new Array<number>(d).fill(0)
for (let step = 0; step < 4000; step++) {
  const g = new Array<number>(d).fill(0)
  for (const p of pairs) {
    let z = 0
    for (let i = 0; i < d; i++) z += (p.x[i]! / sd[i]!) * w[i]!
    const s = p.w / (1 + Math.exp(z))
    for (let i = 0; i < d; i++) g[i]! -= (s * p.x[i]!) / sd[i]!
  }
  for (let i = 0; i < d; i++) w[i]! -= 0.5 * (g[i]! / total + LAMBDA * w[i]!)
}
const weights = w.map((v, i) => Math.round((v / sd[i]!) * 1000) / 1000)
console.log(`${pairs.length} training pairs; weights:\n${FEATURE_NAMES.map((n, i) => `  ${n}: ${weights[i]}`).join('\n')}`)

for (const [set, pieces] of featured) {
  const misses: string[] = []
  let reachable = 0
  for (const piece of pieces) {
    if (piece.cands.some((c) => Math.abs(c.bpm - piece.bpm) <= 1)) reachable++
    const best = piece.cands.reduce((a, c) => (score(c.features) > score(a.features) ? c : a))
    if (Math.abs(best.bpm - piece.bpm) > 1) misses.push(`${piece.name} ${piece.bpm} → ${best.bpm.toFixed(1)}`)
  }
  const right = pieces.length - misses.length
  console.log(
    `${TRAIN.includes(set) ? 'fit  ' : 'check'} ${set}: ${right}/${pieces.length} ` +
      `(${((100 * right) / pieces.length).toFixed(1)} %), truth among the candidates ` +
      `${reachable}/${pieces.length}${misses.length ? `; misses: ${misses.join('; ')}` : ''}`,
  )
}

function score(f: number[]): number {
  return f.reduce((a, v, i) => a + v * weights[i]!, 0)
}

if (process.argv.includes('--save')) {
  const file = fileURLToPath(new URL('../../dsp/tempo-octave-model.ts', import.meta.url))
  const src = readFileSync(file, 'utf8').replace(
    /(TEMPO_MODEL_WEIGHTS: readonly number\[\] = \[)[^\]]*(\])/,
    `$1\n  ${weights.join(', ')},\n$2`,
  )
  writeFileSync(file, src)
  console.log(`weights written to ${file}`)
}
