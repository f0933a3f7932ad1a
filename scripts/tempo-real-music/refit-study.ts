/**
 * Can the tempo model (dsp/tempo-octave-model.ts) learn real music? Refits its weights, as
 * scripts/tempo-model/fit.ts does (pairwise logistic regression over the candidates' metrical
 * features), on composer pieces, the catalogue, the real-music tuning half and, optionally, the
 * unit tests' rhythm signals at other tempi; prints every set's accuracy and a leave-one-piece-out
 * estimate on the tuning half (each tuning piece's excerpts predicted by a fit without it). The
 * held-out half is printed only with --held-out: look at it once, for a model already chosen.
 *
 *   npx tsx scripts/tempo-real-music/render.ts            # once: the real-music excerpts
 *   npx tsx scripts/tempo-real-music/decode-catalogue.ts  # once: the catalogue at the analysis rate
 *   npx tsx scripts/tempo-real-music/refit-study.ts [--rhythm=0.1] [--held-out] [--weights]
 *
 * Prints the weights with --weights; it never writes them: docs/tempo-real-music.md says why the
 * shipped model was kept.
 */
import { FEATURE_NAMES } from '../../dsp/metrical-features.ts'
import { arpeggio, backbeat, RHYTHM_SR } from '../../dsp/rhythm-test-signals.ts'
import { tempoCandidates } from '../../dsp/tempo-detect.ts'
import { TEMPO_MODEL_WEIGHTS } from '../../dsp/tempo-octave-model.ts'
import { composerPieces, renderScore } from '../../workers/composer-test-render.ts'
import { loadRendered } from '../tempo-model/pieces.ts'
import { excerptMixdown, readExcerptIndex } from './rendered-excerpts.ts'

type Piece = { name: string; piece: string; bpm: number; cands: { bpm: number; features: number[] }[] }

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`))
const rhythmWeight = Number(arg('rhythm')?.split('=')[1] ?? 0)
const LAMBDA = 0.0001

function realSplit(split: string): Piece[] {
  return readExcerptIndex()
    .filter((e) => e.split === split)
    .map((e) => {
      const { x, rate } = excerptMixdown(e.id)
      return { name: e.id, piece: e.piece, bpm: e.bpm, cands: tempoCandidates(x, rate) }
    })
}

const composer = (set: string): Piece[] =>
  composerPieces(45, set).map((s, i) => {
    const name = `${s.genre}/${s.mood}#${i}`
    return { name, piece: name, bpm: s.bpm, cands: tempoCandidates(renderScore(s), 8000) }
  })

const rhythm = (kind: 'backbeat' | 'arpeggio', tempi: number[]): Piece[] =>
  tempi.map((b) => {
    const name = `${kind} ${b}`
    return { name, piece: name, bpm: b, cands: tempoCandidates((kind === 'backbeat' ? backbeat : arpeggio)(b), RHYTHM_SR) }
  })

const sets: Record<string, Piece[]> = {
  'composer (fit)': composer('remix tempo piece'),
  catalogue: loadRendered('catalogue').map((p) => ({
    name: p.name,
    piece: p.name,
    bpm: p.bpm,
    cands: tempoCandidates(p.signal, p.sampleRate),
  })),
  'real tuning': realSplit('tuning'),
  // Other tempi than dsp/tempo-detect.test.ts checks (70, 100, 160; 72, 96).
  'rhythm signals': [...rhythm('backbeat', [65, 85, 115, 130, 145, 170, 185]), ...rhythm('arpeggio', [60, 66, 84, 108, 120])],
  'composer held-out (check)': composer('held-out tempo check'),
  'composer fresh (check)': composer('fresh tempo check'),
  'unit-test signals (check)': [...rhythm('backbeat', [70, 100, 160]), ...rhythm('arpeggio', [72, 96])],
}
if (arg('held-out')) sets['real held-out (check)'] = realSplit('held-out')
const WEIGHT: Record<string, number> = { 'composer (fit)': 1, catalogue: 1, 'real tuning': 1, 'rhythm signals': rhythmWeight }

function fit(leaveOut?: string): number[] {
  const pairs: { x: number[]; w: number }[] = []
  for (const [set, w] of Object.entries(WEIGHT)) {
    if (!w) continue
    for (const p of sets[set]!) {
      if (p.piece === leaveOut) continue
      const truth = p.cands.find((c) => Math.abs(c.bpm - p.bpm) <= 1)
      if (truth) for (const c of p.cands) if (c !== truth) pairs.push({ x: truth.features.map((v, i) => v - c.features[i]!), w })
    }
  }
  const d = FEATURE_NAMES.length
  const sd = Array.from({ length: d }, (_, i) => Math.sqrt(pairs.reduce((a, p) => a + p.x[i]! ** 2, 0) / pairs.length) || 1)
  const total = pairs.reduce((a, p) => a + p.w, 0)
  const w = new Array<number>(d).fill(0)
  for (let step = 0; step < 3000; step++) {
    const g = new Array<number>(d).fill(0)
    for (const p of pairs) {
      let z = 0
      for (let i = 0; i < d; i++) z += (p.x[i]! / sd[i]!) * w[i]!
      const s = p.w / (1 + Math.exp(z))
      for (let i = 0; i < d; i++) g[i]! -= (s * p.x[i]!) / sd[i]!
    }
    for (let i = 0; i < d; i++) w[i]! -= 0.5 * (g[i]! / total + LAMBDA * w[i]!)
  }
  return w.map((v, i) => Math.round((v / sd[i]!) * 1000) / 1000)
}

const pick = (weights: readonly number[], p: Piece) => {
  const score = (f: number[]) => f.reduce((a, v, i) => a + v * weights[i]!, 0)
  return p.cands.reduce((a, c) => (score(c.features) > score(a.features) ? c : a)).bpm
}
const hits = (weights: readonly number[], pieces: Piece[]) => {
  const misses = pieces.filter((p) => Math.abs(pick(weights, p) - p.bpm) > 1)
  return (
    `${pieces.length - misses.length}/${pieces.length}` +
    (misses.length ? `; misses ${misses.map((p) => `${p.name} ${p.bpm}→${pick(weights, p).toFixed(1)}`).join(', ')}` : '')
  )
}

const refit = fit()
if (arg('weights')) console.log(`weights: ${refit.join(', ')}`)
for (const [set, pieces] of Object.entries(sets))
  console.log(`${set}: shipped ${hits(TEMPO_MODEL_WEIGHTS, pieces)}\n  refit ${hits(refit, pieces)}`)
// Leave one tuning piece out (both its excerpts), fit, predict it: what the refit would do on pieces it never saw.
let right = 0
for (const piece of new Set(sets['real tuning']!.map((p) => p.piece))) {
  const w = fit(piece)
  for (const p of sets['real tuning']!.filter((q) => q.piece === piece)) if (Math.abs(pick(w, p) - p.bpm) <= 1) right++
}
console.log(`real tuning, leave one piece out: ${right}/${sets['real tuning']!.length}`)
