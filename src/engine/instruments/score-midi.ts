/**
 * A composer Score as the MIDI events the SoundFont synthesizer plays: one channel per part with its
 * GM program (gm-voices.ts), volume, pan and reverb send, the brightness of each section as CC 74,
 * and the drums on channel 10. Frames are rounded once here, so the offline and the live engine
 * start every note on the same sample.
 */
import type { DrumVoice, NoteEvent, Score } from '../../../workers/composer/score.ts'
import {
  DRUM_CHANNEL,
  SYNTH_CONTROLLER,
  SYNTH_NOTE_OFF,
  SYNTH_NOTE_ON,
  SYNTH_PROGRAM,
  type SynthEvent,
} from '../../../audio-worklets/soundfont-sequence.ts'
import { gmVoices, type GmVoices } from './gm-voices.ts'

export type InstrumentPart = 'melody' | 'chords' | 'pad' | 'bass' | 'drums'
export const INSTRUMENT_PARTS: readonly InstrumentPart[] = ['melody', 'chords', 'pad', 'bass', 'drums']

const CHANNEL: Record<InstrumentPart, number> = { melody: 0, chords: 1, pad: 2, bass: 3, drums: DRUM_CHANNEL }
/** CC 7 volume, CC 10 pan (64 = centre), CC 91 reverb send per part. */
const MIX: Record<InstrumentPart, { volume: number; pan: number; reverb: number }> = {
  melody: { volume: 110, pan: 64, reverb: 50 },
  chords: { volume: 92, pan: 50, reverb: 45 },
  pad: { volume: 70, pan: 80, reverb: 70 },
  bass: { volume: 100, pan: 64, reverb: 10 },
  drums: { volume: 96, pan: 64, reverb: 30 },
}

/** GM percussion keys. */
const DRUM_KEY: Record<DrumVoice, number> = { kick: 36, snare: 38, hat: 42, openHat: 46, ride: 51, crash: 49 }
const DRUM_HOLD_SECONDS = 0.25

const CONTROL_ORDER = 0
const OFF_ORDER = 1
const ON_ORDER = 2

const velocity = (v: number): number => Math.max(1, Math.min(127, Math.round(v * 127)))

export interface ScoreMidiOptions {
  sampleRate: number
  from?: number
  to?: number
  parts?: readonly InstrumentPart[]
  voices?: GmVoices
}

export function scoreToSynthEvents(score: Score, options: ScoreMidiOptions): SynthEvent[] {
  const sr = options.sampleRate
  const from = Math.max(0, options.from ?? 0)
  const to = Math.min(score.renderDuration, options.to ?? score.renderDuration)
  const lastFrame = Math.max(0, Math.round((to - from) * sr) - 1)
  const parts = new Set(options.parts ?? INSTRUMENT_PARTS)
  const voices = options.voices ?? gmVoices(score)
  const keyed: { e: SynthEvent; order: number; seq: number }[] = []
  const push = (e: SynthEvent, order: number) => keyed.push({ e, order, seq: keyed.length })
  const frameOf = (t: number) => Math.min(lastFrame, Math.max(0, Math.round((t - from) * sr)))

  const setUp = (part: InstrumentPart, program: number) => {
    const channel = CHANNEL[part]
    const mix = MIX[part]
    push({ frame: 0, kind: SYNTH_PROGRAM, channel, a: program, b: 0 }, CONTROL_ORDER)
    push({ frame: 0, kind: SYNTH_CONTROLLER, channel, a: 7, b: mix.volume }, CONTROL_ORDER)
    push({ frame: 0, kind: SYNTH_CONTROLLER, channel, a: 10, b: mix.pan }, CONTROL_ORDER)
    push({ frame: 0, kind: SYNTH_CONTROLLER, channel, a: 91, b: Math.round(mix.reverb * (0.5 + score.mix.reverb)) }, CONTROL_ORDER)
    push({ frame: 0, kind: SYNTH_CONTROLLER, channel, a: 93, b: 0 }, CONTROL_ORDER)
    // Each section's brightness opens or closes the channel's filter (CC 74 moves the SoundFont's filter cutoff by up to
    // ±4 octaves; the chorus opens up). The kit takes the full range, so a dark piece's cymbals darken; the pitched
    // parts take a narrower one, because the bank's own filters already darken a soft piano and a full turn would muffle it.
    const [low, span] = part === 'drums' ? [0, 127] : [40, 87]
    for (const s of score.sections) {
      if (s.endTime <= from || s.startTime >= to) continue
      const value = Math.round(low + span * Math.min(1, Math.max(0, s.brightness)))
      push({ frame: frameOf(s.startTime), kind: SYNTH_CONTROLLER, channel, a: 74, b: value }, CONTROL_ORDER)
    }
  }

  const notes = (part: Exclude<InstrumentPart, 'drums'>, list: NoteEvent[]) => {
    if (!parts.has(part) || list.length === 0) return
    setUp(part, voices[part])
    const channel = CHANNEL[part]
    for (const n of list) {
      if (n.time < from || n.time >= to) continue
      const on = frameOf(n.time)
      const off = Math.max(on + 1, frameOf(n.time + n.duration))
      push({ frame: on, kind: SYNTH_NOTE_ON, channel, a: n.midi, b: velocity(n.velocity) }, ON_ORDER)
      if (off <= lastFrame) push({ frame: off, kind: SYNTH_NOTE_OFF, channel, a: n.midi, b: 0 }, OFF_ORDER)
    }
  }
  notes('melody', score.tracks.melody)
  notes('chords', score.tracks.chords)
  notes('pad', score.tracks.pad)
  notes('bass', score.tracks.bass)
  if (parts.has('drums') && score.tracks.drums.length && score.instrumentation.drums !== 'none') {
    setUp('drums', voices.drumKit)
    for (const h of score.tracks.drums) {
      if (h.time < from || h.time >= to) continue
      const key = DRUM_KEY[h.voice]
      const on = frameOf(h.time)
      push({ frame: on, kind: SYNTH_NOTE_ON, channel: DRUM_CHANNEL, a: key, b: velocity(h.velocity) }, ON_ORDER)
      const off = frameOf(h.time + DRUM_HOLD_SECONDS)
      if (off > on) push({ frame: off, kind: SYNTH_NOTE_OFF, channel: DRUM_CHANNEL, a: key, b: 0 }, OFF_ORDER)
    }
  }
  // By frame; within a frame controls first, then note-offs (a repeated key ends before it starts again), then note-ons.
  keyed.sort((x, y) => x.e.frame - y.e.frame || x.order - y.order || x.seq - y.seq)
  return keyed.map((k) => k.e)
}
