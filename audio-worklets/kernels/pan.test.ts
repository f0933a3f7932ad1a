import { describe, expect, it } from 'vitest'
import { PanKernel, panGains } from './pan.ts'
import { noise, render, SR } from './test-signals.ts'

function power(x: Float32Array): number {
  let s = 0
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!
  return s
}

describe('equal-power pan kernel', () => {
  it('keeps L² + R² constant within 0.1 dB across -50..50', () => {
    const x = noise(SR / 4, 0.5)
    const reference = 2 * power(x) // a centred mono source: unity both sides
    for (let p = -50; p <= 50; p += 5) {
      const k = new PanKernel(SR, p)
      k.snap()
      const [l, r] = render(k, x)
      const dbDiff = 10 * Math.log10((power(l) + power(r)) / reference)
      expect(Math.abs(dbDiff), `pan ${p}`).toBeLessThan(0.1)
    }
  })

  it('is transparent at centre and hard-pans at the ends', () => {
    expect(panGains(0).left).toBeCloseTo(1, 12)
    expect(panGains(-50).right).toBeCloseTo(0, 12)
    expect(panGains(50).left).toBeCloseTo(0, 12)
    const k = new PanKernel(SR, -50)
    k.snap()
    const x = noise(1024)
    const [, r] = render(k, x)
    expect(Math.max(...Array.from(r).map(Math.abs))).toBeLessThan(1e-7)
  })

  it('keeps power constant while the pan glides', () => {
    const k = new PanKernel(SR, -50)
    k.snap()
    k.setPan(50)
    const x = new Float32Array(SR / 10).fill(0.5)
    const [l, r] = render(k, x)
    for (let i = 0; i < x.length; i += 97) {
      expect(Math.abs(10 * Math.log10((l[i]! ** 2 + r[i]! ** 2) / (2 * 0.25)))).toBeLessThan(0.1)
    }
  })
})
