import { describe, expect, it } from 'vitest'
import { LoopLayer } from './loop-layer.ts'

const SR = 48000

describe('LoopLayer (a loop on a beat grid)', () => {
  // A loop of 1.9 s on a 2.0000213 s period: 100 repetitions would drift by 2 ms if lengths were added.
  const loop = new Float32Array(Math.round(1.9 * SR)).map((_, i) => (i === 0 ? 1 : 0.001))
  const layer = new LoopLayer({ loop, firstBeat: 0.5, period: 2.0000213 }, SR)

  it('every repetition starts on the grid (within half a frame) after 100 periods, with no drift', () => {
    for (const k of [0, 1, 57, 100]) {
      const exact = (0.5 + k * 2.0000213) * SR
      expect(Math.abs(layer.start(k) - exact)).toBeLessThanOrEqual(0.5)
      expect(layer.at(layer.start(k))).toBe(1)
      expect(layer.at(layer.start(k) - 1)).toBe(0) // the gap after a loop shorter than its period
    }
  })

  it('is silent before the first beat', () => {
    expect(layer.at(0)).toBe(0)
    expect(layer.at(Math.round(0.5 * SR) - 1)).toBe(0)
    expect(layer.repetitionAt(10)).toBe(-1)
  })

  it('addInto over any block (crossing repetitions, from any seek point) equals frame-by-frame access', () => {
    for (const from of [0, 23_999, 24_000, 2 * SR * 7 + 11, 5_000_000]) {
      const block = new Float32Array(100_000)
      layer.addInto(block, from, block.length, 0.5)
      let worst = 0
      for (let i = 0; i < block.length; i++) worst = Math.max(worst, Math.abs(block[i]! - 0.5 * layer.at(from + i)))
      expect(worst).toBe(0)
    }
  })

  it('gain 0 adds nothing; a non-positive period is refused', () => {
    const block = new Float32Array(10)
    layer.addInto(block, Math.round(0.5 * SR), 10, 0)
    expect(block.every((v) => v === 0)).toBe(true)
    expect(() => new LoopLayer({ loop, firstBeat: 0, period: 0 }, SR)).toThrow(RangeError)
  })
})
