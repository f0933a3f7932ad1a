import { describe, expect, it } from 'vitest'
import { LevelMeter } from './meter.ts'
import { sine, SR } from './test-signals.ts'

describe('level meter', () => {
  it('reports peak and RMS per channel once per window, across block boundaries', () => {
    const window = SR / 30 // 1600 frames: not a multiple of 128
    const meter = new LevelMeter(window)
    const l = sine(SR, 1000, 0.5)
    const r = sine(SR, 1000, 0.25)
    let windows = 0
    for (let start = 0; start < SR; start += 128) {
      if (meter.add(l.subarray(start, start + 128), r.subarray(start, start + 128), Math.min(128, SR - start))) windows++
    }
    expect(windows).toBe(30)
    expect(meter.levels.peakL).toBeCloseTo(0.5, 3)
    expect(meter.levels.rmsL).toBeCloseTo(0.5 / Math.SQRT2, 3)
    expect(meter.levels.peakR).toBeCloseTo(0.25, 3)
    expect(meter.levels.rmsR).toBeCloseTo(0.25 / Math.SQRT2, 3)
  })

  it('falls back to zero after the signal stops', () => {
    const meter = new LevelMeter(256)
    meter.add(new Float32Array(128).fill(1), new Float32Array(128).fill(1), 128)
    meter.add(new Float32Array(128).fill(1), new Float32Array(128).fill(1), 128)
    expect(meter.levels.peakL).toBe(1)
    meter.add(new Float32Array(128), new Float32Array(128), 128)
    meter.add(new Float32Array(128), new Float32Array(128), 128)
    expect(meter.levels.peakL).toBe(0)
    expect(meter.levels.rmsR).toBe(0)
  })
})
