import { describe, expect, it } from 'vitest'
import { clipComposer, clipPlaysExact, type ClipPlay } from './clip-render.ts'

const SR = 1000
const ramp = Float32Array.from({ length: 100 }, (_, i) => i) // sample value = its index

function compose(plays: ClipPlay[], length: number, channels: Float32Array[] = [ramp]): [Float32Array, Float32Array] {
  const c = clipComposer(plays, channels, SR)!
  const l = new Float32Array(length)
  const r = new Float32Array(length)
  // Odd-sized blocks, so block edges fall inside clips, loops and fades.
  for (let pos = 0; pos < length; pos += 7) {
    const bl = new Float32Array(Math.min(7, length - pos))
    const br = new Float32Array(bl.length)
    c.fill(pos, bl, br)
    l.set(bl, pos)
    r.set(br, pos)
  }
  return [l, r]
}

const play = (p: Partial<ClipPlay>): ClipPlay => ({ startAt: 0, stopAt: 0.05, offset: 0, loop: null, gain0: 1, curves: [], ...p })

describe('composing clips in the worker', () => {
  it('places audio at its start, from its offset, until its stop; mono feeds both sides', () => {
    const [l, r] = compose([play({ startAt: 0.01, stopAt: 0.02, offset: 0.03 })], 40)
    expect(Array.from(l.subarray(8, 22))).toEqual([0, 0, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 0, 0])
    expect(r).toEqual(l)
  })

  it('a loop wraps inside its region, starting from its phase', () => {
    const [l] = compose([play({ startAt: 0, stopAt: 0.012, offset: 0.013, loop: { start: 0.01, end: 0.015 } })], 12)
    expect(Array.from(l)).toEqual([13, 14, 10, 11, 12, 13, 14, 10, 11, 12, 13, 14])
  })

  it('gain: gain0 before a curve, linear between its points, its last value after; overlapping clips add', () => {
    const curve = { start: 0.002, duration: 0.004, values: Float32Array.of(0, 1, 0.5) }
    const [l] = compose(
      [play({ startAt: 0, stopAt: 0.01, offset: 0.05, gain0: 2, curves: [curve] }), play({ startAt: 0.008, stopAt: 0.01, offset: 0 })],
      10,
      [new Float32Array(100).fill(1)],
    )
    expect(Array.from(l)).toEqual([2, 2, 0, 0.5, 1, 0.75, 0.5, 0.5, 1.5, 1.5])
  })

  it('stops at the audio end when not looping; refuses what it cannot do exactly', () => {
    const [l] = compose([play({ startAt: 0, stopAt: 1, offset: 0.098 })], 5)
    expect(Array.from(l)).toEqual([98, 99, 0, 0, 0])
    expect(clipPlaysExact([play({ startAt: 0.0005 })], 100, SR)).toBe(false) // half a frame
    expect(clipPlaysExact([play({ loop: { start: 0.02, end: 0.01 } })], 100, SR)).toBe(false)
    expect(clipComposer([play({})], [ramp, ramp, ramp], SR)).toBeNull()
    expect(clipPlaysExact([play({ startAt: 0.001, stopAt: 0.004, offset: 0.002 })], 100, SR)).toBe(true)
  })
})
