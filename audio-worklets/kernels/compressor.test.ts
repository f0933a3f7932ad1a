import { describe, expect, it } from 'vitest'
import { CompressorKernel, compressorSettingsForAmount, staticGainDb } from './compressor.ts'
import { db, peak, render, square, SR } from './test-signals.ts'

const DESIGN = { thresholdDb: -20, ratio: 4, makeupDb: 0, attackSeconds: 0.005, releaseSeconds: 0.05 }

function steadyGainDb(k: CompressorKernel, amp: number): number {
  // A square wave has a constant |x|, so the peak detector settles exactly on its level.
  const x = square(SR, 100, amp)
  const [y] = render(k, x)
  return db(peak(y, SR - 4800, SR) / amp)
}

describe('feed-forward compressor kernel', () => {
  it('applies the designed gain reduction at steady state', () => {
    for (const levelDb of [-14, -6, 0]) {
      const k = new CompressorKernel(SR)
      k.configure(DESIGN)
      k.enable(true)
      k.snap()
      // e.g. -6 dBFS is 14 dB over a -20 dB threshold; at 4:1 that is 10.5 dB of reduction.
      expect(Math.abs(steadyGainDb(k, 10 ** (levelDb / 20)) - staticGainDb(levelDb, DESIGN)), `${levelDb} dBFS`).toBeLessThan(0.2)
    }
  })

  it('leaves input below the threshold untouched', () => {
    const k = new CompressorKernel(SR)
    k.configure(DESIGN)
    k.enable(true)
    k.snap()
    const x = square(SR / 2, 100, 0.05) // -26 dBFS
    const [y] = render(k, x)
    let maxErr = 0
    for (let i = 0; i < x.length; i++) maxErr = Math.max(maxErr, Math.abs(y[i]! - x[i]!))
    expect(maxErr).toBeLessThan(1e-6)
  })

  it('the strip amount drives threshold, ratio and makeup as documented', () => {
    const s = compressorSettingsForAmount(50)
    expect(s.thresholdDb).toBe(-21)
    expect(s.ratio).toBe(4.5)
    const k = new CompressorKernel(SR, 50)
    k.snap()
    expect(Math.abs(steadyGainDb(k, 0.5) - staticGainDb(db(0.5), s))).toBeLessThan(0.2)
    // Below threshold only the makeup gain applies.
    expect(Math.abs(steadyGainDb(new CompressorKernel(SR, 50), 0.02) - s.makeupDb)).toBeLessThan(0.05)
  })

  it('attacks faster than it releases', () => {
    const k = new CompressorKernel(SR)
    k.configure(DESIGN)
    k.enable(true)
    k.snap()
    const loud = square(SR / 2, 100, 1)
    const quiet = square(SR / 2, 100, 0.01)
    const x = new Float32Array(SR)
    x.set(quiet)
    x.set(loud, SR / 2)
    const [y] = render(k, x)
    const start = SR / 2
    // 30 ms after the step up the reduction is essentially complete (attack 5 ms)…
    const target = 10 ** (staticGainDb(0, DESIGN) / 20)
    expect(Math.abs(db(peak(y, start + 1440, start + 1920) / target))).toBeLessThan(0.5)
    // …while after the step back down the gain recovers only gradually (release 50 ms).
    const k2 = new CompressorKernel(SR)
    k2.configure(DESIGN)
    k2.enable(true)
    k2.snap()
    const down = new Float32Array(SR)
    down.set(loud)
    down.set(quiet, SR / 2)
    const [z] = render(k2, down)
    const gainAfter = (ms: number) => db(peak(z, start + (ms * SR) / 1000, start + ((ms + 10) * SR) / 1000) / 0.01)
    expect(gainAfter(10)).toBeLessThan(-3) // still compressing 10 ms after the loud part ended
    expect(gainAfter(400)).toBeGreaterThan(-0.1) // fully released
  })
})
