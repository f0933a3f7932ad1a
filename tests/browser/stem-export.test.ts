/**
 * Stem export, in real Chromium: every track that can sound through its own channel
 * strip alone, one WAV each in a ZIP. Checked by numbers: each stem equals the same track rendered
 * on its own, the stems add up to the summed stems of the mix (before its master), and the ZIP's
 * WAVs hold exactly those samples.
 */
import { describe, expect, it } from 'vitest'
import { unzipSync } from 'fflate'
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { renderEachTrackInWorkers, renderStemsInWorkers } from '../../src/engine/stem-render.ts'
import { exportStemsZip, NoStemsError, stemFileNames } from '../../src/engine/stem-export.ts'
import { noise, rms, sine } from '../../audio-worklets/kernels/test-signals.ts'

const SR = 48000

function track(id: string, name: string, audioId: string, duration: number, settings: Partial<MixerTrack> = {}): MixerTrack {
  return { ...createTrack({ id, name, type: 'main', audioId, duration, offset: settings.offset }), ...settings }
}

function stemMix(): MixerState {
  putMixerAudio({ id: 'st-drums', sampleRate: SR, channels: [noise(SR, 0.3, 51), noise(SR, 0.3, 52)] })
  putMixerAudio({ id: 'st-bass', sampleRate: SR, channels: [sine(SR / 2, 110, 0.5)] })
  putMixerAudio({ id: 'st-keys', sampleRate: 44100, channels: [sine(44100, 440, 0.3), sine(44100, 550, 0.3)] })
  const drums = track('d', 'Drums', 'st-drums', 1, { pan: -30 })
  return {
    master: { volume: 80, reverb: 30 },
    tracks: [
      { ...drums, effects: { ...drums.effects, compression: 50, delay: 30 } },
      track('b', 'Bass / Sub', 'st-bass', 0.5, { offset: 0.25, volume: 85 }),
      track('k', 'Keys', 'st-keys', 1, { offset: 0.2, pan: 40 }),
      track('m', 'Muted', 'st-drums', 1, { enabled: false }),
      track('z', 'Silent', 'st-drums', 1, { volume: 0 }),
    ],
  }
}

const maxAbsDiff = (a: Float32Array, b: Float32Array) => {
  expect(a.length).toBe(b.length)
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

/** The samples of a 32-bit float stereo WAV, read chunk by chunk (fmt, then data). */
function floatWav(bytes: Uint8Array): { channels: number; sampleRate: number; left: Float32Array; right: Float32Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  expect(tag(0)).toBe('RIFF')
  expect(tag(8)).toBe('WAVE')
  let channels = 0
  let sampleRate = 0
  for (let at = 12; at + 8 <= bytes.length; at += 8 + view.getUint32(at + 4, true)) {
    const size = view.getUint32(at + 4, true)
    if (tag(at) === 'fmt ') {
      channels = view.getUint16(at + 10, true)
      sampleRate = view.getUint32(at + 12, true)
    } else if (tag(at) === 'data') {
      const frames = size / (4 * channels)
      const left = new Float32Array(frames)
      const right = new Float32Array(frames)
      for (let i = 0; i < frames; i++) {
        left[i] = view.getFloat32(at + 8 + 8 * i, true)
        right[i] = view.getFloat32(at + 12 + 8 * i, true)
      }
      return { channels, sampleRate, left, right }
    }
  }
  throw new Error('no data chunk')
}

describe('stem export', () => {
  it('renders each audible track alone, in order; each equals the track rendered on its own, and they add up to the mix', async () => {
    const state = stemMix()
    const length = Math.round(1.25 * SR)
    const stems = await renderEachTrackInWorkers(state.tracks, { length, sampleRate: SR, workers: 2 })
    expect(stems.map((s) => s.track.name)).toEqual(['Drums', 'Bass / Sub', 'Keys'])
    for (const stem of stems) {
      const alone = await renderStemsInWorkers([stem.track], { length, sampleRate: SR, workers: 1 })
      expect(rms(stem.channels[0]!), stem.track.name).toBeGreaterThan(0.005)
      for (let c = 0; c < 2; c++) expect(maxAbsDiff(stem.channels[c]!, alone[c]!), stem.track.name).toBe(0)
    }
    const mix = await renderStemsInWorkers(state.tracks, { length, sampleRate: SR, workers: 2 })
    for (let c = 0; c < 2; c++) {
      const sum = new Float32Array(length)
      for (const s of stems) for (let i = 0; i < length; i++) sum[i] = sum[i]! + s.channels[c]![i]!
      expect(maxAbsDiff(sum, mix[c]!)).toBeLessThan(1e-6)
    }
    // The bass starts at 0.25 s: its stem is silent before, so it lines up in another program.
    expect(rms(stems[1]!.channels[0]!.subarray(0, Math.round(0.24 * SR)))).toBe(0)
  })

  it('the ZIP holds one WAV per audible track, named in order, with exactly the rendered samples (32-bit float)', async () => {
    const state = stemMix()
    const progress: number[] = []
    const zip = await exportStemsZip(state, { sampleRate: SR, format: 'float32', onProgress: (f) => progress.push(f) })
    expect(zip.type).toBe('application/zip')
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()))
    expect(Object.keys(files)).toEqual(['01 Drums.wav', '02 Bass Sub.wav', '03 Keys.wav'])
    const length = Math.round(1.2 * SR) // the mix ends where Keys ends: 0.2 s + 1 s
    const stems = await renderEachTrackInWorkers(state.tracks, { length, sampleRate: SR })
    for (const [i, name] of Object.keys(files).entries()) {
      const wav = floatWav(files[name]!)
      expect(wav).toMatchObject({ channels: 2, sampleRate: SR })
      expect(wav.left.length).toBe(length)
      expect(maxAbsDiff(wav.left, stems[i]!.channels[0]!), name).toBe(0)
      expect(maxAbsDiff(wav.right, stems[i]!.channels[1]!), name).toBe(0)
    }
    expect(progress.at(-1)).toBe(1)
  })

  it('says in words when no track can be heard, and a cancel rejects with an AbortError', async () => {
    const state = stemMix()
    const silent = { ...state, tracks: state.tracks.filter((t) => !t.enabled || t.volume === 0) }
    await expect(exportStemsZip(silent, { sampleRate: SR })).rejects.toBeInstanceOf(NoStemsError)
    await expect(exportStemsZip(silent, { sampleRate: SR })).rejects.toThrow(/No track can be heard/)
    const ac = new AbortController()
    ac.abort()
    await expect(exportStemsZip(state, { sampleRate: SR, signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('file names are safe, numbered in track order, and never collide', () => {
    expect(stemFileNames(['Drums', 'Drums', 'a/b\\c:d*e?"f<g>h|i', '', '  Vox  (lead) '])).toEqual([
      '01 Drums.wav',
      '02 Drums.wav',
      '03 a b c d e f g h i.wav',
      '04 Track.wav',
      '05 Vox (lead).wav',
    ])
    expect(stemFileNames(Array.from({ length: 100 }, () => 'x'))[99]).toBe('100 x.wav')
  })
})
