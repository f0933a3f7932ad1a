/**
 * Standard MIDI Files in and out, read and written by spessasynth_core (the synthesizer's own MIDI
 * parser and builder, loaded only when a file is imported or exported).
 *
 *   readMidiFile(bytes)          → { bpm, name, parts }: one part per MIDI channel that has notes,
 *                                  with its GM program (channel 10: drums), notes in seconds
 *   writeMidiFile(tracks, bpm)   → the bytes of a type-1 file: one MIDI track per instrument track,
 *                                  its program, notes in beats at 480 ticks per beat
 *
 * Notes are read in seconds (the parser follows every tempo change), so a file's notes keep the
 * times they were written at whatever tempo the project plays them.
 */
import { DRUM_CHANNEL } from '../../../audio-worklets/soundfont-sequence.ts'
import { gmProgramName } from '../../config/gm-programs.ts'

export class MidiFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'MidiFileError'
  }
}

export interface MidiPart {
  name: string
  program: number
  drums: boolean
  notes: { key: number; seconds: number; lengthSeconds: number; velocity: number }[]
}

export interface MidiFileContents {
  /** The tempo at the start of the file. */
  bpm: number
  name: string
  parts: MidiPart[]
}

const MAX_MIDI_BYTES = 4 * 1024 * 1024
const PROGRAM_CHANGE = 0xc0
const TRACK_NAME = 0x03
/** Drum hits have no length in many files: each lasts at least this. */
const MIN_DRUM_SECONDS = 0.1

export async function readMidiFile(bytes: ArrayBuffer, fileName = 'MIDI file'): Promise<MidiFileContents> {
  if (bytes.byteLength > MAX_MIDI_BYTES) throw new MidiFileError(`"${fileName}" is larger than 4 MB, too large for a MIDI file.`)
  const { BasicMIDI } = await import('spessasynth_core')
  let mid: InstanceType<typeof BasicMIDI>
  try {
    mid = BasicMIDI.fromArrayBuffer(bytes.slice(0), fileName)
  } catch (e) {
    throw new MidiFileError(`"${fileName}" is not a MIDI file that can be read.`, { cause: e })
  }
  const programs = new Map<number, number>()
  const names = new Map<number, string>()
  const decoder = new TextDecoder()
  mid.tracks.forEach((track) => {
    let name = ''
    for (const e of track.events) {
      if (e.statusByte === TRACK_NAME) name = decoder.decode(e.data).trim()
      const channel = e.statusByte & 0x0f
      if ((e.statusByte & 0xf0) === PROGRAM_CHANGE && !programs.has(channel)) programs.set(channel, e.data[0] ?? 0)
    }
    // A track that plays one channel names it.
    if (name && track.channels.size === 1) names.set([...track.channels][0]!, name)
  })
  const parts: MidiPart[] = []
  mid.getNoteTimes(MIN_DRUM_SECONDS).forEach((notes, channel) => {
    if (!notes.length || channel > 15) return
    const drums = channel === DRUM_CHANNEL
    const program = drums ? 0 : (programs.get(channel) ?? 0)
    parts.push({
      name: names.get(channel) || gmProgramName(program, drums),
      program,
      drums,
      notes: notes.map((n) => ({ key: n.midiNote, seconds: n.start, lengthSeconds: n.length, velocity: n.velocity })),
    })
  })
  if (parts.length === 0) throw new MidiFileError(`"${fileName}" has no notes to import.`)
  // Listed from the last change to the first, the parser's own 120 BPM default last of those at tick 0.
  const first = mid.tempoChanges.find((c) => c.ticks === 0)?.tempo ?? 120
  // The file stores microseconds per beat: 90 BPM reads back as 90.00009.
  return { bpm: Math.round(first * 100) / 100, name: mid.getName()?.trim() || fileName.replace(/\.(mid|midi|kar|rmi)$/i, ''), parts }
}

export interface MidiTrackOut {
  name: string
  program: number
  drums: boolean
  /** Timeline beats. */
  notes: { key: number; start: number; length: number; velocity: number }[]
}

const TICKS_PER_BEAT = 480

export async function writeMidiFile(tracks: readonly MidiTrackOut[], bpm: number, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const { MIDIBuilder } = await import('spessasynth_core')
  const mid = new MIDIBuilder({ name, timeDivision: TICKS_PER_BEAT, initialTempo: bpm, format: 1 })
  // Melodic tracks take channels 1–16 in turn, skipping the drums' channel 10.
  const melodic = Array.from({ length: 16 }, (_, c) => c).filter((c) => c !== DRUM_CHANNEL)
  let nextMelodic = 0
  tracks.forEach((t, i) => {
    const index = i + 1
    mid.addTrack(t.name)
    const channel = t.drums ? DRUM_CHANNEL : melodic[nextMelodic++ % melodic.length]!
    mid.programChange(0, index, channel, t.program)
    const tick = (beats: number) => Math.max(0, Math.round(beats * TICKS_PER_BEAT))
    for (const n of t.notes) {
      const on = tick(n.start)
      mid.noteOn(on, index, channel, n.key, n.velocity)
      mid.noteOff(Math.max(on + 1, tick(n.start + n.length)), index, channel, n.key)
    }
  })
  mid.flush(true)
  return new Uint8Array(mid.writeMIDI())
}
