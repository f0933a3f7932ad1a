/**
 * What a candidate tempo looks like metrically: the numbers the tempo model
 * (tempo-octave-model.ts) weighs to choose between a tempo and its relatives (double, half, 2:3…),
 * which an autocorrelation alone cannot tell apart: in music with a steady eighth-note pulse
 * every multiple of the eighth is periodic.
 *
 * Per candidate beat period p (envelope frames):
 *  - comb: the autocorrelation comb's score at p, relative to the best over the tempo range;
 *  - tempo: log2(bpm / 100), a learned lean between a tempo and its relatives (fitted with its
 *    square too, the model preferred ~180 BPM over slow pieces' true beat: the square is left out);
 *  - per band (full, low, mid, high): how periodic it is at p, p/2 and 2p (normalised
 *    autocorrelation), i.e. whether the beat, its subdivision and its pairs recur;
 *  - per band (low, mid, high), on the beat grid placed where the whole spectrum peaks: on-beat
 *    against half-beat strength, and how unequal alternate beats are (a backbeat: kick, snare,
 *    kick, snare is unequal at the true beat, even at half tempo, muddled at 2:3);
 *  - harmonic change periodicity at p, 2p and 4p (chords move on beats and bars).
 */
import type { OnsetBands } from './onset-bands.ts'

export const FEATURE_NAMES = [
  'comb',
  'log2 tempo',
  'full p',
  'full p/2',
  'full 2p',
  'low p',
  'low p/2',
  'low 2p',
  'mid p',
  'mid p/2',
  'mid 2p',
  'high p',
  'high p/2',
  'high 2p',
  'low on-off',
  'low alternation',
  'mid on-off',
  'mid alternation',
  'high on-off',
  'high alternation',
  'harmony p',
  'harmony 2p',
  'harmony 4p',
] as const

interface BandStats {
  x: Float64Array
  mean: number
  energy: number
}

/** Mean and centred energy of each band, computed once per signal for the normalised autocorrelations. */
export type MetricalContext = { bands: OnsetBands; stats: Record<'full' | 'low' | 'mid' | 'high' | 'chroma', BandStats> }

export function metricalContext(bands: OnsetBands): MetricalContext {
  const stat = (x: Float64Array): BandStats => {
    let mean = 0
    for (let i = 0; i < x.length; i++) mean += x[i]!
    mean /= x.length || 1
    let energy = 0
    for (let i = 0; i < x.length; i++) energy += (x[i]! - mean) ** 2
    return { x, mean, energy }
  }
  return {
    bands,
    stats: { full: stat(bands.full), low: stat(bands.low), mid: stat(bands.mid), high: stat(bands.high), chroma: stat(bands.chroma) },
  }
}

/** Mean-removed autocorrelation at a fractional lag, normalised by the signal's energy. */
function periodicity({ x, mean, energy }: BandStats, lag: number): number {
  const whole = Math.floor(lag)
  const frac = lag - whole
  if (energy <= 0 || whole + 1 >= x.length) return 0
  let s0 = 0,
    s1 = 0
  for (let i = 0; i + whole + 1 < x.length; i++) {
    const d = x[i]! - mean
    s0 += d * (x[i + whole]! - mean)
    s1 += d * (x[i + whole + 1]! - mean)
  }
  return ((1 - frac) * s0 + frac * s1) / energy
}

/** Mean strength on the grid phase + k·period, each point the largest within ±1 frame (jitter). */
function gridMean(a: Float64Array, phase: number, period: number): number {
  let s = 0,
    n = 0
  for (let t = phase; t < a.length - 2; t += period) {
    const i = Math.round(t)
    s += Math.max(a[i - 1] ?? 0, a[i]!, a[i + 1]!)
    n++
  }
  return n ? s / n : 0
}

/** The grid phase (frames, within one period) where the whole spectrum's attacks are strongest. */
export function strongestPhase(a: Float64Array, period: number): number {
  let best = 0,
    top = -Infinity
  for (let p = 0; p < period; p += 0.5) {
    const s = gridMean(a, p, period)
    if (s > top) {
      top = s
      best = p
    }
  }
  return best
}

export function metricalFeatures(ctx: MetricalContext, bpm: number, comb: number): number[] {
  const { bands, stats } = ctx
  const p = (60 * bands.frameRate) / bpm
  const lt = Math.log2(bpm / 100)
  const out = [comb, lt]
  for (const band of [stats.full, stats.low, stats.mid, stats.high])
    out.push(periodicity(band, p), periodicity(band, p / 2), periodicity(band, 2 * p))
  const phase = strongestPhase(bands.full, p)
  for (const a of [bands.low, bands.mid, bands.high]) {
    const on = gridMean(a, phase, p),
      off = gridMean(a, phase + p / 2, p)
    const even = gridMean(a, phase, 2 * p),
      odd = gridMean(a, phase + p, 2 * p)
    out.push((on - off) / (on + off + 1e-9), Math.abs(even - odd) / (even + odd + 1e-9))
  }
  out.push(periodicity(stats.chroma, p), periodicity(stats.chroma, 2 * p), periodicity(stats.chroma, 4 * p))
  return out
}
