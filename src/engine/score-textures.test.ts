import { describe, expect, it } from 'vitest'
import { fft } from '../../dsp/fft.ts'
import { renderTextures } from './score-textures.ts'

const RATE = 32000
const N = 4096

/** Share of the power above `hz`, over Hann-windowed frames of the whole signal. */
function shareAbove(signal: Float32Array, hz: number): number {
  let above = 0
  let all = 0
  for (let start = 0; start + N <= signal.length; start += N) {
    const re = new Float64Array(N)
    const im = new Float64Array(N)
    for (let i = 0; i < N; i++) re[i] = signal[start + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1)))
    fft(re, im)
    for (let k = 1; k < N / 2; k++) {
      const power = re[k]! ** 2 + im[k]! ** 2
      all += power
      if ((k * RATE) / N > hz) above += power
    }
  }
  return above / all
}

const rms = (x: Float32Array, from: number, to: number) => {
  let sum = 0
  for (let i = from; i < to; i++) sum += x[i]! ** 2
  return Math.sqrt(sum / (to - from))
}

describe('renderTextures', () => {
  const score = { textures: ['waves' as const], seed: 1234 }

  it('ocean waves reach above 4 kHz (the foam) and swell: loud crests, quiet troughs', () => {
    const [left] = renderTextures(score, RATE, 0, 15)!
    expect(shareAbove(left, 4000)).toBeGreaterThan(0.05)
    // 250 ms windows over two waves: crests at least four times the troughs.
    const windows = Array.from({ length: 60 }, (_, w) => rms(left, w * 8000, (w + 1) * 8000))
    expect(Math.max(...windows) / Math.min(...windows)).toBeGreaterThan(4)
    expect(Math.max(...windows)).toBeGreaterThan(0.05)
  })

  it('a window is the same samples as the whole render (CUBE Radio renders pieces in segments)', () => {
    const [whole] = renderTextures(score, RATE, 0, 12)!
    const [part] = renderTextures(score, RATE, 9, 12)!
    let worst = 0
    for (let i = 0; i < part.length; i++) worst = Math.max(worst, Math.abs(part[i]! - whole[9 * RATE + i]!))
    expect(20 * Math.log10(worst + 1e-12)).toBeLessThan(-100)
  })

  it('adds nothing when the description names no scene sound', () => {
    expect(renderTextures({ textures: [], seed: 1 }, RATE, 0, 1)).toBeNull()
  })
})
