/**
 * The arrangement (clips moved, trimmed, looped, faded, with gain) in real Chromium: the export
 * against the live graph rendered offline (the null test), loop points measured for clicks, fades
 * measured for their equal-power shape, and a start mid-clip against the same moment of a full play.
 */
import { describe, expect, it } from 'vitest'
import { OfflineAudioContext } from 'standardized-audio-context'
import { audioBufferFor, putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { renderMix } from '../../src/engine/offline-mix.ts'
import { renderStemsInWorkers } from '../../src/engine/stem-render.ts'
import { graphStems } from './graph-stems.ts'
import { scheduleClips } from '../../src/engine/arrangement/schedule-clips.ts'
import { clipGainAt, normaliseClip, type Clip } from '../../src/engine/arrangement/clip.ts'
import { noise, rms, sine } from '../../audio-worklets/kernels/test-signals.ts'
import { planClips } from '../../src/engine/arrangement/clip-plan.ts'
import { clipPlaysExact } from '../../workers/clip-render.ts'

const SR = 48000
const dbfs = (x: number) => 20 * Math.log10(Math.max(x, 1e-12))

function maxAbsDiff(a: Float32Array, b: Float32Array, from = 0, to = a.length): number {
  let m = 0
  for (let i = from; i < to; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

const clip = (id: string, duration: number, c: Partial<Clip>): Clip => normaliseClip({ id, ...c }, duration)

function arranged(id: string, audioId: string, duration: number, clips: Clip[], settings: Partial<MixerTrack> = {}): MixerTrack {
  return { ...createTrack({ id, name: id, type: 'main', audioId, duration }), ...settings, clips }
}

/** Moved, trimmed, looped, faded and gained clips on three tracks, one of them another sample rate. */
function arrangement(): MixerState {
  putMixerAudio({ id: 'arr-noise', sampleRate: SR, channels: [noise(SR, 0.3, 51), noise(SR, 0.3, 52)] })
  putMixerAudio({ id: 'arr-tone', sampleRate: SR, channels: [sine(SR / 2, 220, 0.5)] })
  putMixerAudio({ id: 'arr-44', sampleRate: 44100, channels: [noise(44100, 0.3, 53), noise(44100, 0.3, 54)] })
  return {
    master: { volume: 80, reverb: 30 },
    tracks: [
      arranged(
        'moved-trimmed',
        'arr-noise',
        1,
        [
          clip('a1', 1, { start: 0.3, sourceStart: 0.2, sourceEnd: 0.7, length: 0.5, fadeIn: 0.05, fadeOut: 0.1 }),
          clip('a2', 1, { start: 1.1, sourceStart: 0, sourceEnd: 0.4, length: 0.4, gain: 1.6 }),
        ],
        { reverb: 40, effects: { lowpass: 30, highpass: 10, distortion: 20, delay: 30, compression: 40, chorus: 20 } },
      ),
      // A 0.25 s loop dragged out to 1.5 s (six times round), faded in and out.
      // …and the right half of a split loop: it begins 0.2 s into the region and wraps (its phase).
      arranged(
        'looped',
        'arr-tone',
        0.5,
        [
          clip('b1', 0.5, { start: 0.123456, sourceStart: 0.125, sourceEnd: 0.375, length: 1.5, fadeIn: 0.2, fadeOut: 0.3, gain: 0.8 }),
          clip('b2', 0.5, { start: 0.05, sourceStart: 0, sourceEnd: 0.25, phase: 0.2, length: 0.4, gain: 1.2 }),
        ],
        { pan: -30 },
      ),
      // Another sample rate: the browser resamples inside the clip's source, in both paths.
      arranged('resampled', 'arr-44', 1, [clip('c1', 1, { start: 0.5, sourceStart: 0.1, sourceEnd: 0.9, length: 1.2, fadeOut: 0.25 })], {
        volume: 60,
      }),
    ],
  }
}

/** One track's clips alone, straight into the destination (no strip): what the strip would be fed. */
async function clipsAlone(audioId: string, clips: Clip[], seconds: number, position = 0): Promise<Float32Array> {
  const length = Math.round(seconds * SR)
  const ctx = new OfflineAudioContext({ numberOfChannels: 1, length, sampleRate: SR })
  const { getMixerAudio } = await import('../../src/engine/mixer-audio.ts')
  scheduleClips(ctx, audioBufferFor(ctx, getMixerAudio(audioId)!), clips, ctx.destination as never, 0, position)
  return (await ctx.startRendering()).getChannelData(0).slice()
}

describe('arrangement: clips', () => {
  it('the export renders moved, trimmed, looped and faded clips as the live graph does (stems below -100 dBFS)', async () => {
    const state = arrangement()
    const length = Math.round(2 * SR)
    const fromWorkers = await renderStemsInWorkers(state.tracks, { length, sampleRate: SR, workers: 2 })
    const reference = await graphStems(state, length, SR)
    for (let c = 0; c < 2; c++) {
      expect(rms(reference[c]!)).toBeGreaterThan(0.02)
      expect(dbfs(maxAbsDiff(fromWorkers[c]!, reference[c]!))).toBeLessThan(-100)
    }
  })

  it(
    'renderMix: the whole arranged mix through the master equals the live graph below -90 dBFS, and ends where the last ' + 'clip ends',
    async () => {
      const state = arrangement()
      const viaWorkers = await renderMix(state, { sampleRate: SR })
      const viaGraph = await renderMix(state, { sampleRate: SR, engine: 'graph' })
      // 'resampled' ends last: 0.5 + 1.2 s.
      expect(viaGraph[0]!.length).toBe(Math.round(1.7 * SR))
      for (let c = 0; c < 2; c++) {
        expect(rms(viaGraph[c]!)).toBeGreaterThan(0.02)
        expect(dbfs(maxAbsDiff(viaWorkers[c]!, viaGraph[c]!))).toBeLessThan(-90)
      }
    },
  )

  it('whole-frame clips are composed by the workers themselves (no native render) and still equal the graph below -100 dBFS', async () => {
    putMixerAudio({ id: 'whole-noise', sampleRate: SR, channels: [noise(SR, 0.3, 71), noise(SR, 0.3, 72)] })
    putMixerAudio({ id: 'whole-mono', sampleRate: SR, channels: [sine(SR, 330, 0.4)] })
    const clips = [
      clip('w1', 1, { start: 0.25, sourceStart: 0.1, sourceEnd: 0.6, length: 1.3, fadeIn: 0.2, fadeOut: 0.35, gain: 1.3 }),
      clip('w2', 1, { start: 0.5, sourceStart: 0, sourceEnd: 0.5, phase: 0.375, length: 0.5, gain: 0.6 }),
      clip('w3', 1, { start: 1.75, sourceStart: 0.5, sourceEnd: 1, length: 0.25, fadeIn: 0.125, fadeOut: 0.125 }),
    ]
    const state: MixerState = {
      master: { volume: 80, reverb: 30 },
      tracks: [
        arranged('wn', 'whole-noise', 1, clips, {
          reverb: 30,
          effects: { delay: 30, chorus: 20, lowpass: 0, highpass: 0, distortion: 10, compression: 30 },
        }),
        arranged('wm', 'whole-mono', 1, clips.slice(0, 2), { pan: 40 }),
      ],
    }
    expect(clipPlaysExact(planClips(clips, 1, 0, 0, SR), SR, SR)).toBe(true)
    const length = 2 * SR
    const fromWorkers = await renderStemsInWorkers(state.tracks, { length, sampleRate: SR, workers: 2 })
    const reference = await graphStems(state, length, SR)
    for (let c = 0; c < 2; c++) {
      expect(rms(reference[c]!)).toBeGreaterThan(0.02)
      expect(dbfs(maxAbsDiff(fromWorkers[c]!, reference[c]!))).toBeLessThan(-100)
    }
  })

  it(
    'a loop repeats seamlessly: a region of whole periods looped 8 times equals the unbroken tone (no click at the loop ' + 'point)',
    async () => {
      // 480 Hz at 48 kHz: exactly 100 samples per period, so 0.5 s is 240 whole periods.
      putMixerAudio({ id: 'loop-480', sampleRate: SR, channels: [sine(SR / 2, 480, 0.5)] })
      const looped = await clipsAlone('loop-480', [clip('l', 0.5, { start: 0, length: 4 })], 4)
      const ideal = sine(4 * SR, 480, 0.5)
      expect(rms(looped)).toBeGreaterThan(0.3)
      expect(dbfs(maxAbsDiff(looped, ideal))).toBeLessThan(-90)
      // The largest sample-to-sample step anywhere is the sine's own (no jump at 0.5 s, 1 s, …).
      let step = 0
      for (let i = 1; i < looped.length; i++) step = Math.max(step, Math.abs(looped[i]! - looped[i - 1]!))
      expect(step).toBeLessThanOrEqual(0.5 * 2 * Math.sin((Math.PI * 480) / SR) + 1e-4)
    },
  )

  it('fades follow the equal-power curve (-3 dB at their middle) and clip gain scales the clip', async () => {
    putMixerAudio({ id: 'ones', sampleRate: SR, channels: [new Float32Array(2 * SR).fill(1)] })
    const c = clip('f', 2, { start: 0, length: 2, fadeIn: 0.5, fadeOut: 0.8, gain: 1.5 })
    const out = await clipsAlone('ones', [c], 2)
    for (const t of [0.1, 0.25, 0.4, 0.7, 1.0, 1.3, 1.6, 1.9]) expect(out[Math.round(t * SR)]!).toBeCloseTo(clipGainAt(c, t), 3)
    expect(out[Math.round(0.25 * SR)]! / 1.5).toBeCloseTo(Math.SQRT1_2, 3)
  })

  it('starting mid-clip (a seek) gives what a full play gives from that moment: in a fade, in a loop, after a trim', async () => {
    putMixerAudio({ id: 'seek-noise', sampleRate: SR, channels: [noise(SR, 0.4, 61)] })
    const clips = [
      clip('s1', 1, { start: 0.2, sourceStart: 0.1, sourceEnd: 0.35, length: 1.1, fadeIn: 0.3, fadeOut: 0.4, gain: 1.2 }),
      clip('s2', 1, { start: 1.5, sourceStart: 0.5, sourceEnd: 0.9, length: 0.4, fadeOut: 0.1 }),
    ]
    const full = await clipsAlone('seek-noise', clips, 2)
    expect(rms(full)).toBeGreaterThan(0.05)
    for (const position of [0.35, 0.72, 1.05, 1.6]) {
      const from = Math.round(position * SR)
      const tail = await clipsAlone('seek-noise', clips, 2 - from / SR, from / SR)
      // Linear interpolation between fade-curve points differs slightly when the curve is cut.
      expect(dbfs(maxAbsDiff(tail, full.subarray(from), 0, tail.length)), `seek to ${position}`).toBeLessThan(-60)
    }
  })
})
