/**
 * The DSP kernels through the real AudioWorklet in Chromium's OfflineAudioContext: the same
 * measurements as the Node kernel tests (audio-worklets/kernels/*.test.ts), plus a sample-for-sample comparison with
 * the chain run on the main thread.
 */
import { describe, expect, it } from 'vitest'
import { AudioContext as SacAudioContext } from 'standardized-audio-context'
import { BUTTERWORTH_Q, cutoffForAmount } from '../../audio-worklets/kernels/biquad.ts'
import { compressorSettingsForAmount, staticGainDb } from '../../audio-worklets/kernels/compressor.ts'
import { DELAY_STRIP_TIME_SECONDS, delaySettingsForAmount } from '../../audio-worklets/kernels/delay.ts'
import { DistortionKernel } from '../../audio-worklets/kernels/distortion.ts'
import { createChannelStrip, loadChannelStrip, STRIP_DEFAULTS, type StripLevels } from '../../src/engine/channel-strip.ts'
import {
  allFinite,
  amplitudeAt,
  biquadMagnitude,
  cookbook,
  db,
  maxStep,
  noise,
  peak,
  render,
  rms,
  sine,
  square,
  SR,
} from '../../audio-worklets/kernels/test-signals.ts'
import { renderChain, renderStrip } from './strip-render.ts'

const ALL_50 = { lowpass: 50, highpass: 50, distortion: 50, compression: 50, chorus: 50, delay: 50, reverb: 50, volume: 50, pan: 25 }

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

describe('channel strip worklet in an OfflineAudioContext', () => {
  it('reproduces the kernel chain sample for sample (every effect at 50)', async () => {
    const x = noise(SR * 2, 0.5, 11)
    const y = noise(SR * 2, 0.5, 12)
    const [wl, wr] = await renderStrip(ALL_50, x, y)
    const [cl, cr] = renderChain(ALL_50, x, y)
    expect(rms(wl)).toBeGreaterThan(0.01)
    expect(maxDiff(wl, cl)).toBeLessThan(1e-6)
    expect(maxDiff(wr, cr)).toBeLessThan(1e-6)
  })

  it('gives the same output through standardized-audio-context', async () => {
    const x = noise(SR / 2, 0.5, 5)
    const [nl] = await renderStrip(ALL_50, x)
    const [sl] = await renderStrip(ALL_50, x, x, { flavour: 'sac' })
    expect(maxDiff(nl, sl)).toBeLessThan(1e-6)
  })

  it('is bit-transparent with neutral settings', async () => {
    const x = noise(SR / 4, 0.9, 3)
    const [l, r] = await renderStrip({}, x)
    expect(maxDiff(l, x)).toBe(0)
    expect(maxDiff(r, x)).toBe(0)
  })

  it('lowpass and highpass match the analytic RBJ response within ±0.5 dB', async () => {
    for (const [mode, amount] of [
      ['lowpass', 50],
      ['highpass', 60],
    ] as const) {
      const analytic = cookbook(mode, cutoffForAmount(mode, amount), BUTTERWORTH_Q)
      for (const f of [100, 400, 1500, 6000]) {
        const expected = db(biquadMagnitude(analytic, f))
        const x = sine(SR / 2, f, 0.5)
        const [y] = await renderStrip({ [mode]: amount }, x)
        const n = 12000
        const measured = db(amplitudeAt(y, f, x.length - n, n) / amplitudeAt(x, f, x.length - n, n))
        expect(Math.abs(measured - expected), `${mode} ${amount} @ ${f} Hz`).toBeLessThan(0.5)
      }
    }
  })

  it('delay echoes at its set time with its set decay', async () => {
    const x = new Float32Array(SR * 1.5)
    x[0] = 1
    const [y] = await renderStrip({ delay: 50 }, x)
    const { wet, feedback } = delaySettingsForAmount(50)
    const d = Math.round(DELAY_STRIP_TIME_SECONDS * SR)
    expect(y[0]).toBe(1)
    for (let echo = 1; echo <= 3; echo++) expect(y[echo * d]).toBeCloseTo(wet * feedback ** (echo - 1), 5)
  })

  it('compression reaches the designed steady-state gain; quiet input gets only makeup', async () => {
    const s = compressorSettingsForAmount(50)
    const loud = square(SR, 100, 0.5)
    const [y] = await renderStrip({ compression: 50 }, loud)
    expect(Math.abs(db(peak(y, SR - 4800, SR) / 0.5) - staticGainDb(db(0.5), s))).toBeLessThan(0.2)
    const quiet = square(SR / 2, 100, 0.02)
    const [q] = await renderStrip({ compression: 50 }, quiet)
    expect(Math.abs(db(peak(q, SR / 4, SR / 2) / 0.02) - s.makeupDb)).toBeLessThan(0.05)
  })

  it('pan keeps L² + R² constant within 0.1 dB', async () => {
    const x = noise(SR / 4, 0.5, 9)
    const ref = 2 * rms(x) ** 2
    for (const pan of [-50, -25, 0, 10, 25, 50]) {
      const [l, r] = await renderStrip({ pan }, x)
      expect(Math.abs(10 * Math.log10((rms(l) ** 2 + rms(r) ** 2) / ref)), `pan ${pan}`).toBeLessThan(0.1)
    }
  })

  it('distortion harmonics rise with drive; the oversampled worklet aliases less than a 1x shaper', async () => {
    const f0 = 1000
    let prev = -Infinity
    for (const amount of [10, 40, 100]) {
      const [y] = await renderStrip({ distortion: amount }, sine(SR + 4800, f0, 0.5))
      const seg = y.subarray(4800)
      let h = 0
      for (let k = 2; k * f0 < SR / 2; k++) h += amplitudeAt(seg, k * f0, 0, SR) ** 2
      const thd = 10 * Math.log10(h / amplitudeAt(seg, f0, 0, SR) ** 2)
      expect(thd).toBeGreaterThan(prev + 1)
      prev = thd
    }
    const alias = (y: Float32Array, f: number) => {
      let h = 0
      for (let k = 1; k * f < SR / 2; k++) h += amplitudeAt(y, k * f, 0, SR) ** 2 / 2
      return rms(y) ** 2 - h
    }
    const x = sine(SR + 4800, 7100, 0.5)
    const [w] = await renderStrip({ distortion: 40 }, x)
    const plain = new DistortionKernel(SR, 40, { oversample: 1 })
    plain.snap()
    const [p] = render(plain, x)
    expect(10 * Math.log10(alias(p.subarray(4800), 7100) / alias(w.subarray(4800), 7100))).toBeGreaterThan(25)
  })

  it('chorus and reverb at 100 stay bounded over 60 s of noise and leave a decaying tail', async () => {
    const x = new Float32Array(SR * 66)
    x.set(noise(SR * 60, 1, 21))
    const xr = new Float32Array(SR * 66)
    xr.set(noise(SR * 60, 1, 22))
    const [l, r] = await renderStrip({ chorus: 100, reverb: 100 }, x, xr)
    const stop = SR * 60
    expect(allFinite(l, r)).toBe(true)
    expect(rms(l, stop - SR, stop) / rms(l, SR, 2 * SR)).toBeLessThan(1.1)
    const tail0 = rms(l, stop, stop + SR / 10)
    expect(tail0).toBeGreaterThan(0.01)
    expect(rms(l, stop + SR, stop + SR + SR / 10) / tail0).toBeLessThan(0.1)
    expect(rms(r, stop + 5 * SR, stop + 5 * SR + SR / 10)).toBeLessThan(rms(r, stop + 3 * SR, stop + 3 * SR + SR / 10))
  })

  it('silence in gives exact silence out with everything at 100; extreme input stays finite', async () => {
    const all100 = {
      lowpass: 100,
      highpass: 100,
      distortion: 100,
      compression: 100,
      chorus: 100,
      delay: 100,
      reverb: 100,
      volume: 100,
      pan: 50,
    }
    const [l, r] = await renderStrip(all100, new Float32Array(SR))
    expect(peak(l) + peak(r)).toBe(0)
    const loud = noise(SR, 1000, 4)
    const [a, b] = await renderStrip({ ...all100, lowpass: 1, highpass: 1 }, loud)
    expect(allFinite(a, b)).toBe(true)
  })

  it('a control jump mid-render (slider moved) makes no step beyond the bound', async () => {
    const x = sine(SR, 50, 0.5)
    const at = 0.505 // a crest of the 50 Hz tone, on a render-quantum boundary within 1 sample
    const quantumAt = (Math.round((at * SR) / 128) * 128) / SR
    for (const [param, from, to] of [
      ['volume', 0, 100],
      ['pan', -50, 50],
      ['distortion', 0, 100],
      ['highpass', 0, 100],
    ] as const) {
      const [l, r] = await renderStrip({ [param]: from }, x, x, { changes: [{ at: quantumAt, params: { [param]: to } }] })
      const [sl, sr] = await renderStrip({ [param]: to }, x)
      const bound = Math.max(maxStep(sl, SR / 4, SR), maxStep(sr, SR / 4, SR)) + 0.01
      const j = Math.round(quantumAt * SR)
      // The change happened (output moves towards the new setting)…
      expect(maxDiff(l.subarray(j + 4800, j + 9600), sl.subarray(j + 4800, j + 9600)), `${param} settled`).toBeLessThan(0.05)
      // …without a click.
      expect(Math.max(maxStep(l, j - 10, j + 2400), maxStep(r, j - 10, j + 2400)), `${param} ${from}→${to}`).toBeLessThan(bound)
    }
  })

  it('posts peak and RMS levels per channel at display rate', async () => {
    const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: SR, sampleRate: SR })
    await loadChannelStrip(ctx)
    const strip = createChannelStrip(ctx, { ...STRIP_DEFAULTS, reverb: 0, volume: 100, pan: -50 })
    const received: StripLevels[] = []
    strip.onLevels((l) => received.push(l))
    const src = new OscillatorNode(ctx, { frequency: 440 })
    const amp = new GainNode(ctx, { gain: 0.5 })
    src.connect(amp).connect(strip.node)
    strip.node.connect(ctx.destination)
    src.start()
    await ctx.startRendering()
    await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThanOrEqual(28)
    expect(received.length).toBeLessThanOrEqual(31)
    const last = received.at(-1)!
    // Hard left: left carries √2 · 0.5, right nothing.
    expect(last.peakL).toBeCloseTo(0.5 * Math.SQRT2, 2)
    expect(last.rmsL).toBeCloseTo((0.5 * Math.SQRT2) / Math.SQRT2, 2)
    expect(last.peakR).toBeLessThan(1e-6)
    expect(last.peak).toBe(last.peakL)
    strip.dispose()
  })

  it('runs in a live standardized-audio-context AudioContext and meters what it hears', async () => {
    const ctx = new SacAudioContext({ latencyHint: 'interactive' })
    try {
      await ctx.resume()
      await loadChannelStrip(ctx)
      await loadChannelStrip(ctx) // cached: a second call is a no-op
      const strip = createChannelStrip(ctx, { volume: 100, reverb: 0 })
      const levels: StripLevels[] = []
      strip.onLevels((l) => levels.push(l))
      const osc = ctx.createOscillator()
      const gain = ctx.createGain()
      gain.gain.value = 0.25
      osc.connect(gain).connect(strip.node)
      strip.node.connect(ctx.destination)
      osc.start()
      await expect.poll(() => levels.filter((l) => l.rms > 0.1).length, { timeout: 5000 }).toBeGreaterThan(3)
      const last = levels.at(-1)!
      expect(last.peak).toBeCloseTo(0.25, 1)
      // Muting through the 'enabled' control fades the output to silence.
      strip.set('enabled', 0)
      expect(strip.params.enabled).toBe(0)
      const before = levels.length
      await expect.poll(() => levels.slice(before).some((l) => l.peak === 0), { timeout: 5000 }).toBe(true)
      strip.dispose()
      osc.stop()
    } finally {
      await ctx.close()
    }
  })
})
