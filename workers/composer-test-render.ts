// Composer pieces rendered with a small additive synth (tones with decaying partials, noise/sine
// drums): test material for the remix analysis whose true tempo and key are in the score. Used by
// the tempo test (8 kHz, 24 s) and the remix bench (44.1 kHz, 3 min).
import { compose, GENRES, MOODS, type Score } from './composer/index.ts'

const SR = 8000
const SECONDS = 24

function noiseAt(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    return (s / 4294967296) * 2 - 1
  }
}

export function renderScore(score: Score, seconds = SECONDS, sampleRate = SR): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate))
  const tone = (time: number, duration: number, midi: number, velocity: number, decay: number, gain: number) => {
    const f = 440 * 2 ** ((midi - 69) / 12)
    const start = Math.round(time * sampleRate)
    const len = Math.min(Math.round((duration + 0.05) * sampleRate), out.length - start)
    for (let i = 0; i < len; i++) {
      const t = i / sampleRate
      const env = Math.min(1, t / 0.005) * Math.exp(-t / decay) * (t > duration ? Math.exp(-(t - duration) / 0.01) : 1)
      const ph = 2 * Math.PI * f * t
      out[start + i]! += gain * velocity * env * (Math.sin(ph) + 0.4 * Math.sin(2 * ph) + 0.2 * Math.sin(3 * ph))
    }
  }
  for (const [part, gain, decay] of [
    ['melody', 0.25, 0.5],
    ['chords', 0.12, 0.6],
    ['pad', 0.06, 2],
    ['bass', 0.3, 0.4],
  ] as const) {
    for (const n of score.tracks[part]) if (n.time < seconds) tone(n.time, n.duration, n.midi, n.velocity, decay, gain)
  }
  const rnd = noiseAt(score.seed)
  for (const h of score.tracks.drums) {
    if (h.time >= seconds) continue
    const start = Math.round(h.time * sampleRate)
    const len = Math.min(Math.round(0.2 * sampleRate), out.length - start)
    let ph = 0
    for (let i = 0; i < len; i++) {
      const t = i / sampleRate
      let v = 0
      if (h.voice === 'kick') {
        ph += (2 * Math.PI * (50 + 100 * Math.exp(-t / 0.03))) / sampleRate
        v = Math.sin(ph) * Math.exp(-t / 0.12)
      } else if (h.voice === 'snare') v = rnd() * Math.exp(-t / 0.06) * 0.7
      else v = rnd() * Math.exp(-t / (h.voice === 'hat' ? 0.015 : 0.08)) * 0.3
      out[start + i]! += h.velocity * v * 0.6
    }
  }
  return out
}

/** One piece per genre × mood pair in turn: 45 pieces covering all nine genres and moods. */
/** `set` names a different family of descriptions: 'held-out' pieces were never used to tune the detector. */
export function composerPieces(count = 45, set = 'remix tempo piece'): Score[] {
  return Array.from({ length: count }, (_, i) =>
    compose({
      description: `${set} ${i}`,
      genre: GENRES[i % GENRES.length],
      mood: MOODS[(i * 2 + Math.floor(i / 9)) % MOODS.length],
      minDurationSeconds: SECONDS,
    }),
  )
}
