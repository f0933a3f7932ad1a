import { describe, expect, it } from 'vitest'
import { DelayKernel } from './delay.ts'
import { render, SR } from './test-signals.ts'

describe('feedback delay kernel', () => {
  it('echoes an impulse at the set time with the set decay', () => {
    const time = 0.25
    const feedback = 0.5
    const wet = 0.8
    const k = new DelayKernel(SR, time, feedback, wet)
    k.snap()
    const x = new Float32Array(SR)
    x[0] = 1
    const [y] = render(k, x)
    expect(y[0]).toBe(1) // dry passes untouched
    const d = time * SR
    for (let echo = 1; echo <= 3; echo++) {
      // The largest sample after the dry impulse in each echo window sits exactly at echo·time…
      let at = -1
      let best = 0
      for (let i = (echo - 0.5) * d; i < (echo + 0.5) * d; i++)
        if (Math.abs(y[i]!) > best) {
          best = Math.abs(y[i]!)
          at = i
        }
      expect(at).toBe(echo * d)
      // …with amplitude wet · feedback^(echo-1).
      expect(best).toBeCloseTo(wet * feedback ** (echo - 1), 5)
    }
    // Nothing but the echoes.
    let other = 0
    for (let i = 1; i < y.length; i++) if (i % d !== 0) other = Math.max(other, Math.abs(y[i]!))
    expect(other).toBe(0)
  })

  it('clamps feedback so even "infinite" feedback decays', () => {
    const k = new DelayKernel(SR, 0.01, 10, 1)
    k.snap()
    const x = new Float32Array(SR * 4)
    x[0] = 1
    const [y] = render(k, x)
    let lastWindow = 0
    for (let i = y.length - SR; i < y.length; i++) lastWindow = Math.max(lastWindow, Math.abs(y[i]!))
    expect(lastWindow).toBeLessThan(1e-3)
  })
})
