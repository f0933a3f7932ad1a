/**
 * Key detection: a chroma vector (energy per pitch class, Goertzel filters on every semitone
 * from C2 to B6 over short frames) correlated with the Krumhansl–Kessler major and minor key
 * profiles rotated to each of the twelve tonics.
 */
const MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88]
const MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17]
export const PITCH_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const

export interface KeyResult {
  tonic: number
  mode: 'major' | 'minor'
  /** e.g. 'A minor' */
  name: string
  chroma: number[]
  correlation: number
}

export function chroma(signal: Float32Array, sampleRate: number, frameSeconds = 0.1, maxFrames = 400): number[] {
  const n = Math.round(frameSeconds * sampleRate)
  const frames = Math.floor(signal.length / n)
  const step = Math.max(1, Math.floor(frames / maxFrames))
  const out = new Array<number>(12).fill(0)
  for (let midi = 36; midi < 96; midi++) {
    const f = 440 * 2 ** ((midi - 69) / 12)
    if (f >= sampleRate / 2) break
    const coeff = 2 * Math.cos((2 * Math.PI * f) / sampleRate)
    let e = 0
    for (let fr = 0; fr < frames; fr += step) {
      let s1 = 0,
        s2 = 0
      const off = fr * n
      for (let i = 0; i < n; i++) {
        const s0 = signal[off + i]! + coeff * s1 - s2
        s2 = s1
        s1 = s0
      }
      e += Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - coeff * s1 * s2))
    }
    out[midi % 12]! += e
  }
  return out
}

function pearson(a: number[], b: number[]): number {
  const ma = a.reduce((x, y) => x + y, 0) / a.length
  const mb = b.reduce((x, y) => x + y, 0) / b.length
  let num = 0,
    da = 0,
    db = 0
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb)
    da += (a[i]! - ma) ** 2
    db += (b[i]! - mb) ** 2
  }
  return num / Math.sqrt(da * db || 1)
}

export function detectKey(signal: Float32Array, sampleRate: number): KeyResult {
  const c = chroma(signal, sampleRate)
  let best: KeyResult = { tonic: 0, mode: 'major', name: 'C major', chroma: c, correlation: -Infinity }
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [
      ['major', MAJOR],
      ['minor', MINOR],
    ] as const) {
      const rotated = profile.map((_, i) => profile[(i - tonic + 12) % 12]!)
      const r = pearson(c, rotated)
      if (r > best.correlation) best = { tonic, mode, name: `${PITCH_NAMES[tonic]} ${mode}`, chroma: c, correlation: r }
    }
  }
  return best
}

/** Pitch classes of the key's scale (natural minor for minor keys). */
export function scalePitchClasses(tonic: number, mode: 'major' | 'minor'): number[] {
  const steps = mode === 'major' ? [0, 2, 4, 5, 7, 9, 11] : [0, 2, 3, 5, 7, 8, 10]
  return steps.map((s) => (tonic + s) % 12)
}

/** Semitone shifts of the diatonic third and fifth above `midi` in the key (Harmonize's voices). */
export function harmonyIntervals(midi: number, tonic: number, mode: 'major' | 'minor'): { third: number; fifth: number } {
  const scale = scalePitchClasses(tonic, mode)
  const pc = ((Math.round(midi) % 12) + 12) % 12
  // The scale degree at or just below the note.
  let degree = 0
  for (let d = 0; d < 7; d++) if ((pc - scale[d]! + 12) % 12 < (pc - scale[degree]! + 12) % 12) degree = d
  const up = (k: number) => (scale[(degree + k) % 7]! - scale[degree]! + 12) % 12 || 12
  return { third: up(2), fifth: up(4) }
}
