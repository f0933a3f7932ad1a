// The scene sounds a description names (textures: 'ocean waves'), synthesised as one stereo layer.
// Every sample is a function of its absolute time in the piece (seeded noise, waves at fixed
// times), so a window renders the same samples as the whole piece (CUBE Radio renders segments).
import type { Score } from '../../workers/composer/index.ts'

/** Seconds between wave crests, and the part of each wave spent rising to its crest. */
const WAVE_SECONDS = 7.5
const RISE = 0.35
/** The sea never falls quite silent between waves. */
const FLOOR = 0.12
const BODY_LEVEL = 0.3
const FOAM_LEVEL = 0.16
/** Filter warm-up before the window: the one-pole filters forget their start within a millisecond. */
const WARMUP_SECONDS = 0.05

/** Noise in [-1, 1) from a sample's absolute index and channel: the same at every render. */
function noise(seed: number, index: number, channel: number): number {
  let h = (Math.imul(index, 0x9e3779b1) ^ Math.imul(channel + 1, 0x85ebca6b) ^ seed) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d)
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b)
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 31 - 1
}

/** A wave's swell, 0 … 1, at `t` seconds: a rise to the crest, then a long fall back. */
export function swell(t: number, seed: number): number {
  const wave = Math.floor(t / WAVE_SECONDS)
  // Each wave crests a little early or late, and some are bigger than others.
  const size = 0.7 + 0.3 * ((noise(seed, wave, 7) + 1) / 2)
  const p = t / WAVE_SECONDS - wave
  const shape = p < RISE ? Math.sin((Math.PI / 2) * (p / RISE)) ** 2 : Math.exp(-(p - RISE) * 4.5)
  return FLOOR + (1 - FLOOR) * size * shape
}

/**
 * Waves on a shore: lowpassed noise whose cutoff and level rise with each swell (the body), and
 * the highpassed rest of the noise as the foam when the wave breaks, which reaches up past 10 kHz.
 */
function waves(seed: number, sampleRate: number, from: number, frames: number): [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] {
  const out: [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] = [new Float32Array(frames), new Float32Array(frames)]
  const first = Math.round(from * sampleRate)
  const warmup = Math.min(first, Math.round(WARMUP_SECONDS * sampleRate))
  for (let c = 0; c < 2; c++) {
    const channel = out[c]!
    let low = 0
    for (let i = first - warmup; i < first + frames; i++) {
      const t = i / sampleRate
      const s = swell(t, seed)
      const cutoff = 250 + 2200 * s
      low += (1 - Math.exp((-2 * Math.PI * cutoff) / sampleRate)) * (noise(seed, i, c) - low)
      if (i < first) continue
      const n = noise(seed, i, c)
      const foam = Math.max(0, s - 0.45) / 0.55
      channel[i - first] = BODY_LEVEL * s * low * 2 + FOAM_LEVEL * foam * (n - low)
    }
  }
  return out
}

/** The score's textures mixed into one stereo buffer for [from, to), or null when it names none. */
export function renderTextures(
  score: Pick<Score, 'textures' | 'seed'>,
  sampleRate: number,
  from: number,
  to: number,
): [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] | null {
  if (!score.textures.includes('waves')) return null
  return waves(score.seed, sampleRate, from, Math.ceil((to - from) * sampleRate))
}
