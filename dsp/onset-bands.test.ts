import { describe, expect, it } from 'vitest'
import { onsetBands } from './onset-bands.ts'
import { RHYTHM_SR as SR } from './rhythm-test-signals.ts'

const sum = (a: Float64Array) => a.reduce((x, v) => x + v, 0)

/** Bursts every `every` s, each with a 2 ms rise and decayed to silence before it ends (no clicks). */
function hits(kind: 'kick' | 'hat' | 'noise', seconds = 8, every = 0.5): Float32Array {
  const out = new Float32Array(seconds * SR)
  let s = 1
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 31 - 1
  let last = 0
  for (let t = 0.25; t < seconds - 0.5; t += every) {
    const start = Math.round(t * SR)
    for (let i = 0; i < 0.4 * SR; i++) {
      const u = i / SR
      const env = Math.min(1, u / 0.002) * Math.exp(-u / (kind === 'hat' ? 0.01 : 0.04))
      const r = rnd()
      // A hat: differenced noise, its energy high in the spectrum.
      const v = kind === 'kick' ? Math.sin(2 * Math.PI * 60 * u) : kind === 'hat' ? (r - last) / 2 : r
      last = r
      out[start + i] = v * env
    }
  }
  return out
}

/** Chords of sustained partials, changing every `every` seconds. */
function chords(seconds = 8, every = 1): Float32Array {
  const out = new Float32Array(seconds * SR)
  const set = [
    [220, 277.2, 329.6],
    [174.6, 220, 261.6],
    [196, 246.9, 293.7],
    [164.8, 196, 246.9],
  ]
  for (let i = 0; i < out.length; i++) {
    const c = set[Math.floor(i / SR / every) % set.length]!
    for (const f of c) out[i]! += 0.2 * Math.sin((2 * Math.PI * f * i) / SR)
  }
  return out
}

describe('onset bands', () => {
  it('a kick weighs in the low band, hats above 1.5 kHz', () => {
    // Log flux makes any attack out of silence broadband (leakage rises from nothing in every bin),
    // so the bands are compared between the two sounds, not within one.
    const share = (b: ReturnType<typeof onsetBands>, band: 'low' | 'high') => sum(b[band]) / (sum(b.low) + sum(b.mid) + sum(b.high))
    const k = onsetBands(hits('kick'), SR)
    const h = onsetBands(hits('hat'), SR)
    expect(share(k, 'low')).toBeGreaterThan(5 * share(h, 'low'))
    expect(share(h, 'high')).toBeGreaterThan(share(k, 'high') + 0.1)
  })

  it('the full envelope peaks at each attack, every 0.5 s', () => {
    const b = onsetBands(hits('kick'), SR)
    const hop = 1 / b.frameRate
    for (let t = 0.25; t < 7; t += 0.5) {
      const at = Math.round(t / hop)
      // Frame f analyses samples [f·hop, f·hop + window): an attack shows in the frames just before its own index.
      const near = Math.max(...b.full.slice(Math.max(0, at - 10), at + 2))
      const between = Math.max(...b.full.slice(at + 30, at + 60))
      expect(near).toBeGreaterThan(5 * between + 1e-9)
    }
  })

  it('harmonic change follows chord changes, not noise bursts', () => {
    const c = onsetBands(chords(), SR)
    const n = onsetBands(hits('noise'), SR)
    const perSecond = (a: Float64Array, rate: number) => sum(a) / (a.length / rate)
    expect(perSecond(c.chroma, c.frameRate)).toBeGreaterThan(10 * perSecond(n.chroma, n.frameRate) + 1e-9)
  })
})
