/**
 * The player-side engine in real Chromium: the master bus graph rendered offline (limiter keeps
 * loud input under the ceiling, quiet input passes at unity), and the Comlink workers as the app
 * loads them (peaks agree with the pure function; a WAV we encode decodes back through the
 * browser's own decodeAudioData to the same samples).
 */
import { describe, expect, it } from 'vitest'
import { OfflineAudioContext } from 'standardized-audio-context'
// Imported statically so Vite's dependency optimizer bundles tone and standardized-audio-context
// together (one shared copy, as in the production build) before the dynamic import below.
import * as ToneModule from 'tone'
import { CLIP_CEILING, createMasterBus } from '../../src/engine/master-bus.ts'
import { computeBufferPeaks, computePeaks, encodeWav } from '../../src/engine/workers.ts'
import { computePeaks as pureComputePeaks } from '../../workers/peaks.ts'

const SR = 48000

async function renderSineThroughBus(amplitude: number, seconds = 1): Promise<Float32Array> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 1, length: SR * seconds, sampleRate: SR })
  const bus = createMasterBus(ctx)
  const osc = ctx.createOscillator()
  osc.frequency.value = 441
  const gain = ctx.createGain()
  gain.gain.value = amplitude
  osc.connect(gain).connect(bus.input)
  osc.start()
  const out = await ctx.startRendering()
  return out.getChannelData(0)
}

const peakOf = (x: Float32Array, from = 0) => x.subarray(from).reduce((m, v) => Math.max(m, Math.abs(v)), 0)

describe('master bus (offline render)', () => {
  it('passes a quiet signal at unity (makeup gain trimmed): -20 dBFS in, -20 dBFS out within 0.1 dB', async () => {
    const out = await renderSineThroughBus(0.1)
    const p = peakOf(out, SR / 2)
    expect(Math.abs(20 * Math.log10(p / 0.1))).toBeLessThan(0.1)
  })

  it('keeps +12 dBFS input under the ceiling and still loud (limits, does not mute)', async () => {
    const out = await renderSineThroughBus(4)
    expect(peakOf(out)).toBeLessThanOrEqual(CLIP_CEILING + 1e-6)
    expect(peakOf(out, SR / 2)).toBeGreaterThan(0.8)
    expect(out.every(Number.isFinite)).toBe(true)
  })
})

describe('workers in the browser', () => {
  it('peaks worker matches the pure function, whole and streamed from an AudioBuffer', async () => {
    const n = 100_003
    const ch = [0, 1].map((c) => new Float32Array(n).map((_, i) => (Math.sin(i * 0.013 + c) * (i % 97)) / 97))
    const want = pureComputePeaks(ch, 500)
    const whole = await computePeaks(ch, 500)
    const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: 1, sampleRate: SR })
    const buffer = ctx.createBuffer(2, n, SR)
    ch.forEach((c, i) => buffer.copyToChannel(c, i))
    const streamed = await computeBufferPeaks(buffer, 500)
    for (const got of [whole, streamed]) {
      for (let c = 0; c < 2; c++) {
        expect(Array.from(got[c]!.min)).toEqual(Array.from(want[c]!.min))
        expect(Array.from(got[c]!.max)).toEqual(Array.from(want[c]!.max))
      }
    }
  })

  it('WAV encoder worker output decodes in Chromium to the same samples (pcm16 within 1 LSB, float32 exact)', async () => {
    const n = 4800
    const left = new Float32Array(n).map((_, i) => 0.8 * Math.sin((2 * Math.PI * 440 * i) / SR))
    const right = new Float32Array(n).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 660 * i) / SR))
    const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: 1, sampleRate: SR })
    for (const format of ['pcm16', 'float32'] as const) {
      const blob = await encodeWav([left, right], SR, format)
      expect(blob.type).toBe('audio/wav')
      const decoded = await ctx.decodeAudioData(await blob.arrayBuffer())
      expect(decoded.numberOfChannels).toBe(2)
      expect(decoded.length).toBe(n)
      const tol = format === 'pcm16' ? 1 / 32767 : 0
      for (const [c, src] of [left, right].entries()) {
        const got = decoded.getChannelData(c)
        let worst = 0
        for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(got[i]! - src[i]!))
        expect(worst).toBeLessThanOrEqual(tol)
      }
    }
    expect(left[100]).not.toBe(0) // input arrays were copied, not detached
  })
})

describe('Tone.js on the app context', () => {
  it('loadToneWithAppContext makes Tone use the one app-wide context', async () => {
    const { getAudioContext } = await import('../../src/engine/audio-context.ts')
    const { loadToneWithAppContext } = await import('../../src/engine/tone-context.ts')
    const Tone = await loadToneWithAppContext()
    expect(Tone.getContext().rawContext).toBe(getAudioContext())
    expect(await loadToneWithAppContext()).toBe(Tone)
    expect(Tone.getContext()).toBe(ToneModule.getContext())
  })
})
