/**
 * Instrument tracks, by numbers: the notes' render (the SoundFont engine, as the
 * generator uses it) starts every note on its beat's own sample, at its pitch, louder with velocity,
 * drums on channel 10; and an instrument track goes through the same channel strip and export as
 * audio: the export's workers and the live graph rendered offline agree to the bit's noise floor,
 * with the track's clips moved and looped.
 */
import { describe, expect, it } from 'vitest'
import { renderInstrumentAudio } from '../../src/engine/instruments/instrument-render.ts'
import { INSTRUMENT_TAIL_SECONDS, type Note } from '../../src/engine/instruments/note-track.ts'
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { createTrack, withInstrument, type MixerState } from '../../src/engine/mixer-model.ts'
import { renderMix } from '../../src/engine/offline-mix.ts'
import { normaliseClip } from '../../src/engine/arrangement/clip.ts'
import { fft } from '../../dsp/fft.ts'

const BPM = 120
const note = (key: number, start: number, length = 1, velocity = 100): Note => ({ id: `${key}@${start}`, key, start, length, velocity })
const rms = (x: Float32Array, from: number, to: number) => {
  let s = 0
  for (let i = from; i < to; i++) s += x[i]! * x[i]!
  return Math.sqrt(s / Math.max(1, to - from))
}
/** Magnitudes of a Hann-windowed block (its length a power of two). */
function magnitudeSpectrum(x: Float32Array): Float64Array {
  const n = x.length
  const re = Float64Array.from(x, (v, i) => v * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1))))
  const im = new Float64Array(n)
  fft(re, im)
  return Float64Array.from({ length: n / 2 }, (_, k) => Math.hypot(re[k]!, im[k]!))
}
const db = (v: number) => 20 * Math.log10(Math.max(v, 1e-12))
/** First frame at or after `from` whose magnitude exceeds `level`. */
const firstAbove = (x: Float32Array, from: number, level: number) => {
  for (let i = from; i < x.length; i++) if (Math.abs(x[i]!) > level) return i
  return -1
}
function dominantHz(x: Float32Array, from: number, sampleRate: number): number {
  const n = 8192
  const spectrum = magnitudeSpectrum(x.subarray(from, from + n))
  let best = 1
  for (let k = 2; k < spectrum.length; k++) if (spectrum[k]! > spectrum[best]!) best = k
  return (best * sampleRate) / n
}

describe('instrument track render', () => {
  it('starts each note on its beat’s sample, at its pitch, louder with velocity, and runs a tail past the last bar', async () => {
    const notes = [note(60, 0), note(64, 2, 1, 100), note(67, 4, 1, 40)]
    const audio = await renderInstrumentAudio({ program: 0, drums: false, notes }, BPM)
    const [left] = audio.channels as [Float32Array]
    const sr = audio.sampleRate
    expect(left.length).toBe(Math.ceil((8 * 0.5 + INSTRUMENT_TAIL_SECONDS) * sr))
    // Silence before each onset; the sound begins within the first 2 ms after its beat.
    for (const n of notes) {
      const frame = Math.round(n.start * 0.5 * sr)
      if (frame > 0) expect(db(rms(left, frame - 64, frame))).toBeLessThan(db(rms(left, frame + 441, frame + 2205)) - 20)
      const onset = firstAbove(left, Math.max(0, frame - 441), 1e-3)
      expect(onset - frame).toBeGreaterThanOrEqual(0)
      expect(onset - frame).toBeLessThan(0.002 * sr)
      const hz = dominantHz(left, frame + Math.round(0.02 * sr), sr)
      expect(Math.abs(12 * Math.log2(hz / (440 * 2 ** ((n.key - 69) / 12))))).toBeLessThan(0.3)
    }
    // Velocity 40 against 100: quieter by more than 6 dB over the note's first 200 ms.
    const loud = rms(left, Math.round(1 * sr), Math.round(1.2 * sr))
    const soft = rms(left, Math.round(2 * sr), Math.round(2.2 * sr))
    expect(db(loud) - db(soft)).toBeGreaterThan(6)
    // The tail is silent by its end: nothing is cut off.
    expect(db(rms(left, left.length - 4410, left.length))).toBeLessThan(-70)
  })

  it('plays a drum kit on channel 10: a kick is low, a closed hat is bright', async () => {
    const audio = await renderInstrumentAudio({ program: 0, drums: true, notes: [note(36, 0, 0.25), note(42, 2, 0.25)] }, BPM)
    const [left] = audio.channels as [Float32Array]
    const sr = audio.sampleRate
    const centroid = (from: number) => {
      const spectrum = magnitudeSpectrum(left.subarray(from, from + 4096))
      let num = 0
      let den = 0
      spectrum.forEach((m, k) => {
        num += m * ((k * sr) / 4096)
        den += m
      })
      return num / den
    }
    expect(centroid(0)).toBeLessThan(1200)
    expect(centroid(Math.round(1 * sr))).toBeGreaterThan(4000)
  })

  it('goes through the channel strip and the export as audio does: the export equals the live graph, clips looped and moved', async () => {
    const bpm = 100
    const instrument = { program: 48, drums: false, notes: [note(57, 0, 2), note(64, 1, 1), note(69, 3, 1)] }
    const base = createTrack({ id: 'strings', name: 'Strings', type: 'instrument', audioId: '', duration: 0 })
    const track = withInstrument(base, instrument, bpm)
    putMixerAudio(await renderInstrumentAudio(instrument, bpm))
    const bar = (4 * 60) / bpm
    track.clips = [
      normaliseClip({ id: 'loop', start: 0, sourceStart: 0, sourceEnd: bar, length: 2.5 * bar }, track.duration),
      normaliseClip({ id: 'moved', start: 3 * bar, sourceStart: 0, sourceEnd: track.duration, length: track.duration }, track.duration),
    ]
    track.pan = -40
    track.reverb = 35
    track.effects.lowpass = 30
    const state: MixerState = { tracks: [track], master: { volume: 80, reverb: 30 }, tempo: bpm }
    const sampleRate = 48000
    const [exported, graph] = await Promise.all([renderMix(state, { sampleRate }), renderMix(state, { sampleRate, engine: 'graph' })])
    expect(exported[0]!.length).toBe(graph[0]!.length)
    for (let c = 0; c < 2; c++) {
      let worst = 0
      for (let i = 0; i < exported[c]!.length; i++) worst = Math.max(worst, Math.abs(exported[c]![i]! - graph[c]![i]!))
      expect(db(worst)).toBeLessThan(-90)
    }
    // The loop repeats the first bar: the bar's opening A3 sounds again at bar 2 and in the half bar after.
    const left = exported[0]!
    const at = (s: number) => Math.round(s * sampleRate)
    expect(db(rms(left, at(bar) + at(0.02), at(bar) + at(0.2)))).toBeGreaterThan(-40)
    expect(db(rms(left, at(2 * bar) + at(0.02), at(2 * bar) + at(0.2)))).toBeGreaterThan(-40)
  })
})
