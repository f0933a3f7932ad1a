/**
 * An instrument track's notes rendered by the SoundFont synthesizer into mixer audio: the same
 * engine and bank as the generator (gm-render.ts), dry (the track's channel strip adds reverb and
 * effects), at the instrument engine's rate. Deterministic: the same notes give the same samples.
 */
import type { MixerAudio } from '../mixer-audio.ts'
import { INSTRUMENT_RENDER_RATE, renderSynthEvents } from './gm-render.ts'
import { INSTRUMENT_TRACK_GAIN, instrumentAudioId, instrumentDuration, instrumentEvents, type Instrument } from './note-track.ts'

export async function renderInstrumentAudio(instrument: Instrument, bpm: number, signal?: AbortSignal): Promise<MixerAudio> {
  const sampleRate = INSTRUMENT_RENDER_RATE
  const frames = Math.ceil(instrumentDuration(instrument.notes, bpm) * sampleRate)
  const [left, right] = await renderSynthEvents(instrumentEvents(instrument, bpm, sampleRate), frames, {
    sampleRate,
    effects: false,
    signal,
  })
  for (let i = 0; i < frames; i++) {
    left[i]! *= INSTRUMENT_TRACK_GAIN
    right[i]! *= INSTRUMENT_TRACK_GAIN
  }
  return { id: instrumentAudioId(instrument, bpm), sampleRate, channels: [left, right] }
}
