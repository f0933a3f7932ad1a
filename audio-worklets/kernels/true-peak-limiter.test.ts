import { describe, expect, it } from 'vitest'
import { integratedLoudness } from '../../dsp/loudness.ts'
import { truePeakDbtp } from '../../dsp/true-peak.ts'
import { TruePeakLimiter } from './true-peak-limiter.ts'

// The player's true-peak limiter, checked by numbers on its output: the true peak (BS.1770-4, as
// dsp/true-peak.ts measures it) never above the ceiling, nothing changed below it (a null test
// against the input delayed), inter-sample peaks caught, the gain back to 1 after a peak.
const SR = 48_000

/** Runs `channels` through a fresh limiter in render quanta; the output aligned with the input. */
function limit(channels: Float32Array[], ceilingDb = -1) {
  const limiter = new TruePeakLimiter(SR, channels.length, { ceilingDb })
  const n = channels[0]!.length
  const padded = channels.map((c) => {
    const p = new Float32Array(n + limiter.latencyFrames)
    p.set(c)
    return p
  })
  const out = padded.map((p) => new Float32Array(p.length))
  for (let i = 0; i < padded[0]!.length; i += 128) {
    const frames = Math.min(128, padded[0]!.length - i)
    limiter.process(
      padded.map((p) => p.subarray(i, i + frames)),
      out.map((o) => o.subarray(i, i + frames)),
      frames,
    )
  }
  return { out: out.map((o) => o.slice(limiter.latencyFrames)), limiter }
}

const sine = (hz: number, amplitude: number, seconds: number, phase = 0) =>
  Float32Array.from({ length: Math.round(seconds * SR) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / SR + phase))

/** Music-like: a bass tone, a chord, and a drum hit (a decaying noise burst) every half second. */
function track(gain: number, seconds = 6): Float32Array[] {
  let seed = 7
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1
  return [0, 1].map((ch) =>
    Float32Array.from({ length: seconds * SR }, (_, i) => {
      const t = i / SR
      const hit = t % 0.5
      const drum = Math.exp(-hit * 30) * rand()
      const tonal = 0.25 * Math.sin(2 * Math.PI * 55 * t) + 0.1 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277 * t + ch))
      return gain * (0.6 * drum + tonal)
    }),
  )
}

describe('TruePeakLimiter', () => {
  it('below the ceiling the signal passes untouched, only delayed (null test)', () => {
    const input = track(0.5)
    expect(truePeakDbtp(input)).toBeLessThan(-1.5)
    const { out, limiter } = limit(input)
    let worst = 0
    for (let c = 0; c < 2; c++) for (let i = 0; i < input[c]!.length; i++) worst = Math.max(worst, Math.abs(out[c]![i]! - input[c]![i]!))
    expect(worst).toBeLessThan(1e-7)
    expect(limiter.takeLowestGain()).toBe(1)
    expect(limiter.latencyFrames).toBeLessThan(0.002 * SR)
  })

  it.each([1.6, 3])(
    'a song boosted over the ceiling (gain %s) comes out at or below −1 dBTP, more of its loudness kept than a gain cut would',
    (boost) => {
      const input = track(boost)
      expect(truePeakDbtp(input)).toBeGreaterThan(3)
      const { out, limiter } = limit(input)
      expect(truePeakDbtp(out)).toBeLessThanOrEqual(-1)
      expect(truePeakDbtp(out)).toBeGreaterThan(-1.6)
      expect(limiter.takeLowestGain()).toBeLessThan(0.5)
      // Only the peaks are turned down: the song keeps at least 2 dB more loudness than a plain gain
      // cut to the ceiling would leave it (which would take all of its true peak over −1 dBTP).
      const cut = truePeakDbtp(input) + 1
      const lost = integratedLoudness(input, SR) - integratedLoudness(out, SR)
      expect(lost).toBeLessThan(cut - 2)
    },
  )

  it('catches inter-sample peaks the sample peak misses (a sine at fs/4, samples at 45°)', () => {
    // Every sample is at ±0.707 × A while the waveform peaks at A between samples: −0.5 dBTP.
    const a = 10 ** (-0.5 / 20)
    const input = [sine(SR / 4, a, 1, Math.PI / 4), sine(SR / 4, a, 1, Math.PI / 4)]
    const samplePeak = 20 * Math.log10(Math.max(...input[0]!.map(Math.abs)))
    expect(samplePeak).toBeLessThan(-3)
    expect(truePeakDbtp(input)).toBeGreaterThan(-1)
    const { out } = limit(input)
    expect(truePeakDbtp(out)).toBeLessThanOrEqual(-1)
  })

  it('the gain comes back to 1 after a peak (release), without a step', () => {
    const quiet = sine(440, 0.3, 2)
    const burst = sine(440, 1.5, 0.05)
    const input = new Float32Array(quiet.length)
    input.set(quiet)
    for (let i = 0; i < burst.length; i++) input[SR / 2 + i] = burst[i]!
    const { out } = limit([input])
    // Half a second after the burst the quiet tone is back at its own level.
    const tail = (from: number) => Math.max(...out[0]!.subarray(from, from + SR / 10).map(Math.abs))
    expect(tail(SR + SR / 2)).toBeGreaterThan(0.3 * 0.99)
    // Right after the burst it is still held down, and it rises without a step larger than the tone's own change.
    expect(tail(SR / 2 + burst.length)).toBeLessThan(0.3)
    let biggestJump = 0
    for (let i = SR / 2 - 200; i < SR + SR / 2; i++) biggestJump = Math.max(biggestJump, Math.abs(out[0]![i + 1]! - out[0]![i]!))
    expect(biggestJump).toBeLessThan(1.5 * ((2 * Math.PI * 440) / SR) * 1.01)
  })

  it('a mono input through a two-channel limiter and silence in are handled (no NaN, silence out)', () => {
    const limiter = new TruePeakLimiter(SR, 2)
    const out = [new Float32Array(128), new Float32Array(128)]
    limiter.process([undefined, undefined], out, 128)
    expect(out.every((o) => o.every((x) => x === 0))).toBe(true)
  })
})
