/**
 * Tempo and beat-grid detection: the spectral-flux onset envelope's autocorrelation, scored as a
 * comb over the beat's multiples, proposes a tempo; its metrical relatives (double, half, 2:3, 3:2,
 * triple, third, 4:3, 3:4) are refined on the same comb, and a learned linear model over their
 * metrical features (metrical-features.ts, tempo-octave-model.ts) picks the beat among them. Then a
 * fine tempo (0.01 BPM) and the grid's phase (first downbeat) are fitted to the onsets. Runs
 * offline (the analysis worker), any sample rate.
 */
import { onsetBands, type OnsetBands } from './onset-bands.ts'
import { metricalContext, metricalFeatures } from './metrical-features.ts'
import { scoreTempoCandidate } from './tempo-octave-model.ts'

export interface TempoResult {
  bpm: number
  /** Seconds of the first beat of the grid (the detected downbeat when bar accents are present). */
  firstBeat: number
  /** Seconds of each beat of the grid over the signal. */
  beats: number[]
  /** 0 … 1, how much more the chosen tempo scores than the mean candidate. */
  confidence: number
}

export interface TempoCandidate {
  bpm: number
  features: number[]
  score: number
}

/** Ratios of the comb's best tempo that the beat may really be. */
export const METRICAL_RELATIVES = [1, 2, 1 / 2, 2 / 3, 3 / 2, 3, 1 / 3, 4 / 3, 3 / 4] as const

function interp(a: Float64Array, x: number): number {
  const i = Math.floor(x)
  if (i < 0 || i + 1 >= a.length) return 0
  const f = x - i
  return a[i]! * (1 - f) + a[i + 1]! * f
}

interface Analysis {
  bands: OnsetBands
  candidates: TempoCandidate[]
  /** Mean comb score over the range relative to its best (for the confidence). */
  meanComb: number
}

function analyse(signal: Float32Array, sampleRate: number, minBpm: number, maxBpm: number): Analysis {
  const bands = onsetBands(signal, sampleRate)
  const env = bands.full
  const frameRate = bands.frameRate
  const m = env.length
  if (m < frameRate * 4) throw new RangeError('too_short')
  let acc = 0
  for (let i = 0; i < m; i++) acc += env[i]!
  if (acc <= 1e-9) throw new RangeError('no_onsets')
  const maxLag = Math.ceil((60 * frameRate * 4) / (minBpm * 0.98)) + 2
  const acf = new Float64Array(Math.min(maxLag, m - 1))
  for (let lag = 1; lag < acf.length; lag++) {
    let s = 0
    for (let i = 0; i + lag < m; i++) s += env[i]! * env[i + lag]!
    acf[lag] = s / (m - lag)
  }
  // Comb: the beat period and its multiples (bars) score.
  const comb = (bpm: number) => {
    const lag = (60 * frameRate) / bpm
    let s = 0
    for (let k = 1; k <= 4; k++) s += interp(acf, k * lag) / k ** 0.5
    return s
  }
  let best = minBpm,
    top = -Infinity,
    total = 0,
    count = 0
  for (let bpm = minBpm; bpm <= maxBpm; bpm += 0.05) {
    const s = comb(bpm)
    total += s
    count++
    if (s > top) {
      top = s
      best = bpm
    }
  }
  const ctx = metricalContext(bands)
  const candidates: TempoCandidate[] = []
  for (const r of METRICAL_RELATIVES) {
    const centre = best * r
    if (centre < minBpm || centre > maxBpm) continue
    let bpm = centre,
      bs = -Infinity
    for (let x = centre * 0.98; x <= centre * 1.02; x += 0.05) {
      const v = comb(x)
      if (v > bs) {
        bs = v
        bpm = x
      }
    }
    const features = metricalFeatures(ctx, bpm, bs / top)
    candidates.push({ bpm, features, score: scoreTempoCandidate(features) })
  }
  return { bands, candidates, meanComb: total / count / top }
}

/** The comb's tempo and its metrical relatives with their features and model scores (for fitting the model). */
export function tempoCandidates(signal: Float32Array, sampleRate: number, minBpm = 50, maxBpm = 200): TempoCandidate[] {
  return analyse(signal, sampleRate, minBpm, maxBpm).candidates
}

export function detectTempo(signal: Float32Array, sampleRate: number, minBpm = 50, maxBpm = 200): TempoResult {
  const { bands, candidates, meanComb } = analyse(signal, sampleRate, minBpm, maxBpm)
  const env = bands.full
  const frameRate = bands.frameRate
  const m = env.length
  const chosen = candidates.reduce((a, b) => (b.score > a.score ? b : a))
  // Fine tempo: the period whose grid, at its best phase, collects most onset strength over the
  // whole signal. The comb is good to ~0.05 BPM; a sample layer laid on that grid for three
  // minutes needs ~0.01 BPM to stay within 10 ms of the beats.
  const gridScore = (b: number) => {
    const per = (60 * frameRate) / b
    let most = -Infinity
    for (let p = 0; p < per; p += 0.5) {
      let s = 0
      for (let t = p; t < m - 1; t += per) s += interp(env, t)
      if (s > most) most = s
    }
    return most
  }
  let fine = chosen.bpm,
    fineScore = gridScore(chosen.bpm)
  for (let b = chosen.bpm - 0.25; b <= chosen.bpm + 0.25; b += 0.01) {
    const v = gridScore(b)
    if (v > fineScore) {
      fineScore = v
      fine = b
    }
  }
  const bpm = Math.round(fine * 1000) / 1000
  const period = (60 * frameRate) / bpm
  // Phase: the offset whose grid collects most onset strength, with the bar's first beat
  // (every 4th) weighted up so the grid starts on a downbeat where the music accents bars.
  let bestPhase = 0,
    bestPhaseScore = -Infinity
  for (let p = 0; p < period * 4; p += 0.5) {
    let s = 0
    for (let k = 0, t = p; t < m - 1; k++, t = p + k * period) s += interp(env, t) * (k % 4 === 0 ? 1.5 : 1)
    if (s > bestPhaseScore) {
      bestPhaseScore = s
      bestPhase = p
    }
  }
  const start = bestPhase / frameRate + bands.latency
  const bar = (4 * period) / frameRate
  const firstBeat = Math.max(0, start - bar * Math.floor(start / bar))
  const beats: number[] = []
  const duration = signal.length / sampleRate
  for (let t = firstBeat; t < duration; t += 60 / bpm) beats.push(t)
  return { bpm, firstBeat, beats, confidence: Math.max(0, Math.min(1, 1 - meanComb)) }
}
