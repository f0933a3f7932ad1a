import { describe, expect, it } from 'vitest'
import { AutoTune } from './auto-tune.ts'
import { createYin } from '../../dsp/yin.ts'
import { noise } from './test-signals.ts'

const SR = 44100
const A_MAJOR = [9, 11, 1, 2, 4, 6, 8]

function run(input: Float32Array, retuneMs = 0): Float32Array {
  const tuner = new AutoTune({ sampleRate: SR, scale: A_MAJOR, retuneMs })
  const out = new Float32Array(input.length)
  for (let off = 0; off < input.length; off += 128) {
    const n = Math.min(128, input.length - off)
    tuner.process(input.subarray(off, off + n), out.subarray(off, off + n), n)
  }
  return out
}

const cents = (hz: number, ref: number) => 1200 * Math.log2(hz / ref)

/** Mean frequency by zero crossings between two times. */
function zcHz(x: Float32Array, from: number, to: number): number {
  const c: number[] = []
  for (let i = Math.floor(from * SR) + 1; i < to * SR; i++) if (x[i - 1]! < 0 && x[i]! >= 0) c.push(i - 1 + x[i - 1]! / (x[i - 1]! - x[i]!))
  return ((c.length - 1) * SR) / (c.at(-1)! - c[0]!)
}

describe('Auto Tune (YIN + retune)', () => {
  it('a tone held 40 cents flat of A4 is corrected to A4 within ±5 cents after settling (fastest retune)', () => {
    const f = 440 * 2 ** (-40 / 1200)
    const input = new Float32Array(2 * SR).map((_, i) => 0.5 * Math.sin((2 * Math.PI * f * i) / SR))
    const out = run(input, 0)
    const hz = zcHz(out, 0.5, 1.9)
    expect(Math.abs(cents(hz, 440))).toBeLessThan(5)
    // Slower retune settles too (after its glide), and the input really was 40 cents flat.
    expect(Math.abs(cents(zcHz(input, 0.5, 1.9), 440) + 40)).toBeLessThan(1)
    expect(Math.abs(cents(zcHz(run(input, 50), 1.0, 1.9), 440))).toBeLessThan(5)
  })

  it('a glide from A4 to C#5 comes out as scale steps: ≥ 85 % of voiced frames within ±15 cents of A major notes', () => {
    const seconds = 2
    const input = new Float32Array(seconds * SR)
    let ph = 0
    for (let i = 0; i < input.length; i++) {
      const hz = 440 * 2 ** ((4 * i) / input.length / 12)
      ph += (2 * Math.PI * hz) / SR
      input[i] = 0.5 * Math.sin(ph)
    }
    const out = run(input, 0)
    const yin = createYin(SR, 1024)
    let voiced = 0,
      onScale = 0,
      inputOnScale = 0
    const notes = new Set<number>()
    for (let t = 0.1; t < seconds - 0.1; t += 0.02) {
      const at = Math.floor(t * SR)
      const o = yin.detect(out.subarray(at, at + yin.frameLength))
      const p = yin.detect(input.subarray(at, at + yin.frameLength))
      if (o.hz <= 0) continue
      voiced++
      const midi = 69 + 12 * Math.log2(o.hz / 440)
      const n = Math.round(midi)
      if (A_MAJOR.includes(((n % 12) + 12) % 12) && Math.abs(midi - n) * 100 <= 15) {
        onScale++
        notes.add(n)
      }
      const pm = 69 + 12 * Math.log2(p.hz / 440)
      if (Math.abs(pm - Math.round(pm)) * 100 <= 15 && A_MAJOR.includes(Math.round(pm) % 12)) inputOnScale++
    }
    expect(voiced).toBeGreaterThan(80)
    expect(onScale / voiced).toBeGreaterThanOrEqual(0.85)
    expect(inputOnScale / voiced).toBeLessThan(0.5)
    expect([...notes].sort()).toEqual([69, 71, 73])
  })

  it('noise stays noise: no spectral peak more than 12 dB above the median, and it passes untouched', () => {
    const input = noise(SR, 0.3)
    const out = run(input, 0)
    const peakToMedianDb = (x: Float32Array) => {
      const n = 4096
      const powers: number[] = []
      for (let k = 1; k < n / 2; k += 3) {
        let pk = 0
        for (let seg = 0; seg + n <= x.length; seg += n) {
          let re = 0,
            im = 0
          for (let i = 0; i < n; i++) {
            const w = (2 * Math.PI * k * i) / n
            re += x[seg + i]! * Math.cos(w)
            im += x[seg + i]! * Math.sin(w)
          }
          pk += re * re + im * im
        }
        powers.push(pk)
      }
      const sorted = [...powers].sort((a, b) => a - b)
      return 10 * Math.log10(sorted.at(-1)! / sorted[Math.floor(sorted.length / 2)]!)
    }
    const outDb = peakToMedianDb(out)
    expect(outDb).toBeLessThan(12)
    // Nothing was tuned: the output is the input, delayed (residual below -60 dB).
    let bestResidual = Infinity
    for (let d = 0; d < 3000; d++) {
      let e = 0,
        r = 0
      for (let i = 5000; i < 15000; i++) {
        e += input[i]! ** 2
        r += (out[i + d]! - input[i]!) ** 2
      }
      bestResidual = Math.min(bestResidual, 10 * Math.log10(r / e))
      if (bestResidual < -60) break
    }
    expect(bestResidual).toBeLessThan(-60)
  })
})
