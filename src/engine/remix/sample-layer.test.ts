import { describe, expect, it } from 'vitest'
import { layerLoop } from './sample-layer.ts'

const SR = 22050

/** A drum loop: clicks on every beat of `bpm` for `beats` beats. */
function drumLoop(bpm: number, beats: number): Float32Array {
  const x = new Float32Array(Math.round(((beats * 60) / bpm) * SR))
  for (let b = 0; b < beats; b++) {
    const s = Math.round(((b * 60) / bpm) * SR)
    for (let i = 0; i < 120 && s + i < x.length; i++) x[s + i] = Math.exp(-i / 25) * (i % 2 ? -1 : 1)
  }
  return x
}

function onsets(x: Float32Array, threshold: number): number[] {
  const out: number[] = []
  let last = -Infinity
  for (let i = 0; i < x.length; i++)
    if (Math.abs(x[i]!) > threshold && i - last > 0.1 * SR) {
      out.push(i / SR)
      last = i
    }
  return out
}

describe('sample layer (tempo-matched, downbeat-aligned)', () => {
  for (const [loopBpm, sourceBpm] of [
    [120, 97.5],
    [87, 104],
    [147, 147],
  ] as const) {
    it(`a ${loopBpm} BPM drum loop over a ${sourceBpm} BPM source: every onset within ±10 ms of the source's beat grid`, () => {
      const grid = { bpm: sourceBpm, firstBeat: 0.731 }
      const layer = layerLoop(drumLoop(loopBpm, 8), loopBpm, grid, 30 * SR, SR, 0.8)
      const found = onsets(layer, 0.3)
      const expected = Math.floor(((30 - grid.firstBeat) * sourceBpm) / 60) + 1
      expect(found.length).toBeGreaterThanOrEqual(expected - 1)
      const beat = 60 / sourceBpm
      const worst = Math.max(
        ...found.map((t) => {
          const k = Math.round((t - grid.firstBeat) / beat)
          return Math.abs(t - (grid.firstBeat + k * beat))
        }),
      )
      expect(worst).toBeLessThan(0.01)
      expect(found[0]!).toBeGreaterThanOrEqual(grid.firstBeat - 0.01)
    })
  }
})
