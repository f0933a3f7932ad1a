/**
 * Fits the tempo model's weights (dsp/tempo-octave-model.ts): for each training
 * piece the detector's candidates (the comb's tempo and its metrical relatives) are scored on
 * their metrical features, and a pairwise logistic regression learns to rank the true tempo above
 * each other candidate. Prints the weights and every set's accuracy (strictly within ±1 BPM).
 *
 *   npx tsx scripts/tempo-model/render-pieces.ts      # once: real-renderer pieces and the catalogue, in Chromium
 *   npx tsx scripts/tempo-model/fit.ts [--save]       # --save writes the weights into the kernel
 *
 * Training: 45 composer pieces rendered by the test synth (workers/composer-test-render.ts,
 * 'remix tempo piece') and 63 rendered by the app's renderer ('real tempo training'). Checked,
 * never fitted on: 'held-out tempo check' (test synth), 'real tempo check' (app renderer, 45) and
 * the 45 catalogue songs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { FEATURE_NAMES } from '../../dsp/metrical-features.ts'
import { tempoCandidates } from '../../dsp/tempo-detect.ts'
import { composerPieces, renderScore } from '../../workers/composer-test-render.ts'
import { loadRendered, setFile } from './pieces.ts'

interface Piece {
  name: string
  bpm: number
  signal: Float32Array
  sampleRate: number
}

const TRAIN = ['synth:remix tempo piece', 'real:real tempo training']
const CHECK = ['synth:held-out tempo check', 'real:real tempo check', 'real:catalogue']
/** L2 penalty on the standardised weights. */
const LAMBDA = Number(process.env.TEMPO_FIT_LAMBDA ?? 0.0001)

function load(set: string): Piece[] {
  const [kind, name] = set.split(':') as [string, string]
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
const pairs: number[][] = []
for (const set of TRAIN)
  for (const piece of featured.get(set)!) {
    const truth = piece.cands.find((c) => Math.abs(c.bpm - piece.bpm) <= 1)
    if (!truth) continue
    for (const c of piece.cands) if (c !== truth) pairs.push(truth.features.map((v, i) => v - c.features[i]!))
  }
const d = FEATURE_NAMES.length
const sd = Array.from({ length: d }, (_, i) => Math.sqrt(pairs.reduce((a, p) => a + p[i]! ** 2, 0) / pairs.length) || 1)
const w = new Array<number>(d).fill(0)
for (let step = 0; step < 4000; step++) {
  const g = new Array<number>(d).fill(0)
  for (const p of pairs) {
    let z = 0
    for (let i = 0; i < d; i++) z += (p[i]! / sd[i]!) * w[i]!
    const s = 1 / (1 + Math.exp(z))
    for (let i = 0; i < d; i++) g[i]! -= (s * p[i]!) / sd[i]!
  }
  for (let i = 0; i < d; i++) w[i]! -= 0.5 * (g[i]! / pairs.length + LAMBDA * w[i]!)
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
