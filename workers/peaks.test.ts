import { describe, expect, it } from 'vitest'
import { computePeaks, toWaveSurferPeaks } from './peaks.ts'

const f32 = (xs: number[]) => Float32Array.from(xs)

describe('computePeaks', () => {
  it('takes min and max of each equal slice, per channel', () => {
    const left = f32([0.1, -0.5, 0.3, 0.9, -0.2, 0.0, 0.4, -1.0])
    const right = f32([0, 0, 0, 0, 0.25, -0.25, 0.5, 0.5])
    const [l, r] = computePeaks([left, right], 4)
    expect(Array.from(l!.min)).toEqual(Array.from(f32([-0.5, 0.3, -0.2, -1.0])))
    expect(Array.from(l!.max)).toEqual(Array.from(f32([0.1, 0.9, 0.0, 0.4])))
    expect(Array.from(r!.min)).toEqual(Array.from(f32([0, 0, -0.25, 0.5])))
    expect(Array.from(r!.max)).toEqual(Array.from(f32([0, 0, 0.25, 0.5])))
  })

  it('handles lengths that do not divide evenly (every sample lands in exactly one bucket)', () => {
    const n = 1001
    const data = new Float32Array(n).map((_, i) => (i === 1000 ? 0.75 : i === 0 ? -0.75 : 0))
    const [p] = computePeaks([data], 7)
    expect(p!.min[0]).toBeCloseTo(-0.75)
    expect(p!.max[6]).toBeCloseTo(0.75)
    expect(Array.from(p!.max.slice(0, 6))).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('maps fewer samples than buckets by repeating the sample under each bucket', () => {
    const [p] = computePeaks([f32([0.5, -0.5])], 4)
    expect(Array.from(p!.max)).toEqual([0.5, 0.5, -0.5, -0.5])
  })

  it('returns zeros for empty channels and skips NaN', () => {
    const [e] = computePeaks([new Float32Array(0)], 3)
    expect(Array.from(e!.max)).toEqual([0, 0, 0])
    const [n] = computePeaks([f32([NaN, 0.2, NaN, NaN])], 2)
    expect(n!.max[0]).toBeCloseTo(0.2)
    expect(n!.max[1]).toBe(0)
  })

  it('agrees with a brute-force scan on a long random signal', () => {
    const n = 48_000 * 3 + 17
    const data = new Float32Array(n)
    let seed = 1
    for (let i = 0; i < n; i++) {
      seed = (seed * 16807) % 2147483647
      data[i] = (seed / 2147483647) * 2 - 1
    }
    const buckets = 800
    const [p] = computePeaks([data], buckets)
    for (const b of [0, 1, 399, 799]) {
      const s = Math.floor((b * n) / buckets)
      const e = Math.floor(((b + 1) * n) / buckets)
      const slice = Array.from(data.subarray(s, e))
      expect(p!.min[b]).toBe(Math.min(...slice))
      expect(p!.max[b]).toBe(Math.max(...slice))
    }
  })

  it('rejects a bucket count that is not a positive integer', () => {
    expect(() => computePeaks([f32([1])], 0)).toThrow(RangeError)
    expect(() => computePeaks([f32([1])], 2.5)).toThrow(RangeError)
  })

  it('combines channels into WaveSurfer [max, min] form', () => {
    const peaks = computePeaks([f32([0.2, -0.9]), f32([0.6, -0.1])], 1)
    const [top, bottom] = toWaveSurferPeaks(peaks)
    expect(top[0]).toBeCloseTo(0.6)
    expect(bottom[0]).toBeCloseTo(-0.9)
  })
})

describe('PeaksAccumulator', () => {
  it('gives exactly computePeaks for any chunking, including fewer samples than buckets', async () => {
    const { PeaksAccumulator } = await import('./peaks.ts')
    for (const [n, buckets, chunk] of [
      [10_007, 64, 333],
      [10_007, 64, 1],
      [3, 8, 2],
      [5000, 5000, 777],
    ] as const) {
      const chans = [0, 1].map((c) => new Float32Array(n).map((_, i) => Math.sin(i * 0.37 + c) * ((i * 7919) % 13) * 0.07))
      const acc = new PeaksAccumulator(2, n, buckets)
      for (let c = 0; c < 2; c++) for (let o = 0; o < n; o += chunk) acc.add(c, o, chans[c]!.subarray(o, o + chunk))
      const got = acc.result()
      const want = computePeaks(chans, buckets)
      for (let c = 0; c < 2; c++) {
        expect(Array.from(got[c]!.min)).toEqual(Array.from(want[c]!.min))
        expect(Array.from(got[c]!.max)).toEqual(Array.from(want[c]!.max))
      }
    }
  })
})
