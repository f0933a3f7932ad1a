/**
 * The export's strips-in-workers path against the live graph rendered offline (the reference:
 * one channel-strip worklet per track), in real Chromium: stems alone, then the whole mix through
 * the master strip and bus. Tracks cover both input routes (audio handed over as is; audio the
 * browser must first resample, down-mix or start between two frames) and the tracks that are
 * skipped because they cannot sound.
 */
import { describe, expect, it } from 'vitest'
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { renderMix } from '../../src/engine/offline-mix.ts'
import { renderStemsInWorkers } from '../../src/engine/stem-render.ts'
import { graphStems } from './graph-stems.ts'
import { noise, rms, sine } from '../../audio-worklets/kernels/test-signals.ts'

const SR = 48000

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length)
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

const dbfs = (x: number) => 20 * Math.log10(Math.max(x, 1e-12))

function track(
  id: string,
  audioId: string,
  duration: number,
  settings: Partial<MixerTrack> & { effects?: Partial<MixerTrack['effects']> } = {},
): MixerTrack {
  const t = createTrack({ id, name: id, type: 'main', audioId, duration, offset: settings.offset })
  const { effects, ...rest } = settings
  return { ...t, ...rest, effects: { ...t.effects, ...effects } }
}

function testMix(): MixerState {
  putMixerAudio({ id: 'stereo48', sampleRate: SR, channels: [noise(SR, 0.3, 21), noise(SR, 0.3, 22)] })
  putMixerAudio({ id: 'mono48', sampleRate: SR, channels: [sine(SR / 2, 330, 0.5)] })
  putMixerAudio({ id: 'stereo44', sampleRate: 44100, channels: [noise(44100, 0.3, 23), noise(44100, 0.3, 24)] })
  putMixerAudio({ id: 'six48', sampleRate: SR, channels: [1, 2, 3, 4, 5, 6].map((k) => noise(SR / 2, 0.2, 30 + k)) })
  return {
    master: { volume: 80, reverb: 30 },
    tracks: [
      track('a', 'stereo48', 1, {
        pan: -20,
        reverb: 40,
        effects: { lowpass: 35, highpass: 15, distortion: 30, delay: 40, compression: 55, chorus: 25 },
      }),
      // Mono, starting on a whole frame: handed over as is and duplicated in the worker.
      track('b', 'mono48', 0.5, {
        offset: 0.25,
        volume: 85,
        reverb: 60,
        effects: { distortion: 60, delay: 30, lowpass: 0, highpass: 0, compression: 0, chorus: 0 },
      }),
      // Another sample rate: the browser's resampler makes the input.
      track('c', 'stereo44', 1, {
        offset: 0.1,
        pan: 35,
        effects: { lowpass: 30, chorus: 70, highpass: 0, distortion: 0, delay: 0, compression: 0 },
      }),
      // Six channels starting between two frames: down-mix and sub-sample start by the browser.
      track('d', 'six48', 0.5, {
        offset: 0.123456789,
        effects: { compression: 80, highpass: 40, lowpass: 0, distortion: 0, delay: 0, chorus: 0 },
      }),
      // Cannot sound: disabled, at volume 0, audio missing.
      track('e', 'stereo48', 1, { enabled: false }),
      track('f', 'stereo48', 1, { volume: 0 }),
      track('g', 'no-such-audio', 1),
    ],
  }
}

describe('export: strips in workers vs the live graph', () => {
  it("renders the same stems as the graph's strips, for every kind of track input", async () => {
    const state = testMix()
    const length = Math.round(1.25 * SR)
    const progress: number[] = []
    const fromWorkers = await renderStemsInWorkers(state.tracks, {
      length,
      sampleRate: SR,
      workers: 2,
      onProgress: (f) => progress.push(f),
    })
    const reference = await graphStems(state, length, SR)
    for (let c = 0; c < 2; c++) {
      expect(rms(reference[c]!)).toBeGreaterThan(0.02)
      expect(dbfs(maxAbsDiff(fromWorkers[c]!, reference[c]!))).toBeLessThan(-100)
    }
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1]! - 1e-12))).toBe(true)
    expect(progress.at(-1)).toBeCloseTo(1, 9)
  })

  it('each input route on its own matches the graph (a stem that sounds is not hidden by the others)', async () => {
    const state = testMix()
    const length = Math.round(1.25 * SR)
    for (const id of ['b', 'c', 'd']) {
      const one = { ...state, tracks: state.tracks.filter((t) => t.id === id) }
      const [wl, wr] = await renderStemsInWorkers(one.tracks, { length, sampleRate: SR, workers: 1 })
      const [gl, gr] = await graphStems(one, length, SR)
      expect(rms(gl!)).toBeGreaterThan(0.005)
      expect(dbfs(maxAbsDiff(wl!, gl!))).toBeLessThan(-100)
      expect(dbfs(maxAbsDiff(wr!, gr!))).toBeLessThan(-100)
    }
  })

  it("renderMix: the export's default equals the live graph's offline render below -90 dBFS", async () => {
    const state = testMix()
    const viaWorkers = await renderMix(state, { sampleRate: SR })
    const viaGraph = await renderMix(state, { sampleRate: SR, engine: 'graph' })
    for (let c = 0; c < 2; c++) {
      expect(rms(viaGraph[c]!)).toBeGreaterThan(0.02)
      expect(dbfs(maxAbsDiff(viaWorkers[c]!, viaGraph[c]!))).toBeLessThan(-90)
    }
  })

  it('cancelling rejects with an AbortError at once', async () => {
    putMixerAudio({ id: 'long', sampleRate: SR, channels: [noise(30 * SR, 0.3, 40)] })
    const tracks = [
      track('x', 'long', 30, { reverb: 50, effects: { delay: 50, chorus: 50, lowpass: 0, highpass: 0, distortion: 0, compression: 0 } }),
    ]
    const ac = new AbortController()
    const run = renderStemsInWorkers(tracks, { length: 30 * SR, sampleRate: SR, signal: ac.signal, onProgress: (f) => f > 0 && ac.abort() })
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
  })
})
