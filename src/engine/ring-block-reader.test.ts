import { describe, expect, it } from 'vitest'
import { SampleRing } from '../../audio-worklets/sample-ring.ts'
import { RingBlockReader } from './ring-block-reader.ts'

describe('RingBlockReader', () => {
  it('delivers whole blocks with their context frames, and the partial rest only when asked', () => {
    const ring = SampleRing.create(2, 1000)
    const blocks: { start: number; l: number[]; r: number[] }[] = []
    const reader = new RingBlockReader(ring, 256, (ch, start) => blocks.push({ start, l: Array.from(ch[0]!), r: Array.from(ch[1]!) }))
    ring.beginAt(48_000)
    // Three and a half render quanta per write, the producer's own rhythm.
    const l = Float32Array.from({ length: 448 }, (_, i) => i)
    const r = Float32Array.from({ length: 448 }, (_, i) => -i)
    ring.write([l, r], 448)
    reader.drain()
    expect(blocks.map((b) => [b.start, b.l.length])).toEqual([[48_000, 256]])
    ring.write([l, r], 448)
    reader.drain()
    expect(blocks.map((b) => [b.start, b.l.length])).toEqual([
      [48_000, 256],
      [48_256, 256],
      [48_512, 256],
    ])
    reader.drain(true)
    expect(blocks.map((b) => [b.start, b.l.length])).toEqual([
      [48_000, 256],
      [48_256, 256],
      [48_512, 256],
      [48_768, 128],
    ])
    // The stream is the two writes back to back, left and right intact.
    const left = blocks.flatMap((b) => b.l)
    expect(left).toEqual([...l, ...l])
    expect(blocks.flatMap((b) => b.r)).toEqual(left.map((v) => -v))
    reader.drain(true)
    expect(blocks).toHaveLength(4)
  })
})
