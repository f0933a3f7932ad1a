// Synthetic rhythm material for the tempo kernels' tests, at 11025 Hz (the rate they analyse at).
export const RHYTHM_SR = 11025
const SR = RHYTHM_SR

function lcg(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 31 - 1
  }
}

/** A rock groove: kick on 1 and 3, snare on 2 and 4, hats on the eighths. */
export const backbeat = (bpm: number, seconds = 20): Float32Array => backbeatIn(2, bpm, seconds)

/** A 12/8 shuffle: kick on 1 and 3, snare on 2 and 4, hats on the triplet eighths. */
export const shuffle = (bpm: number, seconds = 20): Float32Array => backbeatIn(3, bpm, seconds)

function backbeatIn(subdivisions: 2 | 3, bpm: number, seconds: number): Float32Array {
  const out = new Float32Array(seconds * SR)
  const rnd = lcg(7)
  const beat = 60 / bpm
  const hit = (t: number, kind: 'kick' | 'snare' | 'hat') => {
    const start = Math.round(t * SR)
    let ph = 0
    for (let i = 0; i < 0.2 * SR && start + i < out.length; i++) {
      const s = i / SR
      if (kind === 'kick') {
        ph += (2 * Math.PI * (50 + 90 * Math.exp(-s / 0.03))) / SR
        out[start + i]! += Math.sin(ph) * Math.exp(-s / 0.12)
      } else if (kind === 'snare') out[start + i]! += 0.6 * rnd() * Math.exp(-s / 0.06)
      else out[start + i]! += 0.2 * rnd() * Math.exp(-s / 0.015)
    }
  }
  for (let k = 0; k * beat < seconds; k++) {
    hit(k * beat, k % 2 === 0 ? 'kick' : 'snare')
    for (let j = 0; j < subdivisions; j++) hit((k + j / subdivisions) * beat, 'hat')
  }
  return out
}

const CHORDS = [
  [57, 60, 64],
  [53, 57, 60],
  [55, 59, 62],
  [52, 55, 59],
]

/** A decaying sine at `midi` added into `out` from `t` seconds. */
function tone(out: Float32Array, t: number, midi: number, dur: number, gain: number): void {
  const f = 440 * 2 ** ((midi - 69) / 12)
  const start = Math.round(t * SR)
  for (let i = 0; i < dur * SR && start + i < out.length; i++)
    out[start + i]! += gain * Math.sin((2 * Math.PI * f * i) / SR) * Math.exp(-i / SR / 0.3) * Math.min(1, i / 40)
}

/**
 * No drums: a bass note on every beat, an arpeggio on the subdivisions (2: eighths; 3: triplet
 * eighths, as in 12/8 or a triplet accompaniment), the chord changing every bar of four beats.
 */
function arpeggioIn(subdivisions: 2 | 3, bpm: number, seconds: number): Float32Array {
  const out = new Float32Array(seconds * SR)
  const beat = 60 / bpm
  for (let k = 0; k * beat < seconds; k++) {
    const chord = CHORDS[Math.floor(k / 4) % CHORDS.length]!
    tone(out, k * beat, chord[0]! - 12, beat, 0.5)
    for (let j = 0; j < subdivisions; j++)
      tone(out, (k + j / subdivisions) * beat, chord[(k + j) % 3]! + 12, beat / subdivisions, j === 0 ? 0.25 : 0.18)
  }
  return out
}

/** No drums: a bass note on every beat, an arpeggio on the eighths, the chord changing every bar. */
export const arpeggio = (bpm: number, seconds = 24): Float32Array => arpeggioIn(2, bpm, seconds)

/** No drums: a bass note on every beat, an arpeggio in triplet eighths (12/8), the chord changing every bar. */
export const tripletArpeggio = (bpm: number, seconds = 24): Float32Array => arpeggioIn(3, bpm, seconds)
