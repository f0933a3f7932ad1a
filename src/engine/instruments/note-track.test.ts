import { describe, expect, it } from 'vitest'
import { SYNTH_NOTE_OFF, SYNTH_NOTE_ON, SYNTH_PROGRAM, DRUM_CHANNEL } from '../../../audio-worklets/soundfont-sequence.ts'
import {
  INSTRUMENT_TAIL_SECONDS,
  MIN_NOTE_BEATS,
  addNote,
  instrumentAudioId,
  instrumentDuration,
  instrumentEvents,
  instrumentSpan,
  moveNotes,
  normaliseNote,
  quantiseNotes,
  removeNotes,
  resizeNote,
  sanitizeInstrument,
  setVelocity,
  snapBeats,
  type Note,
} from './note-track.ts'

const note = (id: string, key: number, start: number, length = 1, velocity = 100): Note => ({ id, key, start, length, velocity })

describe('note edits', () => {
  it('adds notes in time order and repairs what is out of range', () => {
    const notes = addNote([note('b', 64, 2)], { id: 'a', key: 200, start: -3, length: 0, velocity: 0 })
    expect(notes).toEqual([note('a', 127, 0, MIN_NOTE_BEATS, 1), note('b', 64, 2)])
  })
  it('moves a chord together, never before beat 0 nor out of the key range', () => {
    const chord = [note('a', 60, 1), note('b', 64, 1), note('c', 120, 3)]
    const moved = moveNotes(chord, new Set(['a', 'b']), -5, 2)
    expect(moved.filter((n) => n.id !== 'c').map((n) => [n.key, n.start])).toEqual([
      [62, 0],
      [66, 0],
    ])
    const high = moveNotes(chord, new Set(['b', 'c']), 0, 20)
    expect(high.find((n) => n.id === 'c')!.key).toBe(127)
    expect(high.find((n) => n.id === 'b')!.key).toBe(71)
  })
  it('resizes, deletes and sets velocity', () => {
    const notes = [note('a', 60, 0), note('b', 62, 1)]
    expect(resizeNote(notes, 'a', 2.5)[0]!.length).toBe(2.5)
    expect(resizeNote(notes, 'a', -1)[0]!.length).toBe(MIN_NOTE_BEATS)
    expect(removeNotes(notes, new Set(['a']))).toEqual([note('b', 62, 1)])
    expect(setVelocity(notes, new Set(['b']), 300)[1]!.velocity).toBe(127)
  })
  it('quantises starts and ends to the grid without ever shrinking a note away', () => {
    const notes = [note('a', 60, 0.13, 0.9), note('b', 62, 1.9, 0.05), note('c', 64, 3.1, 1)]
    const q = quantiseNotes(notes, null, '1/8')
    expect(q.map((n) => [n.start, n.length])).toEqual([
      [0, 1],
      [2, 0.5],
      [3, 1],
    ])
    // Only the chosen ones; 'off' changes nothing.
    expect(quantiseNotes(notes, new Set(['c']), 'beat').map((n) => n.start)).toEqual([0.13, 1.9, 3])
    expect(quantiseNotes(notes, null, 'off')).toEqual(notes)
    expect(snapBeats(1.3, '1/16')).toBe(1.25)
  })
})

describe('the render of an instrument track', () => {
  it('spans whole bars and runs a tail past them', () => {
    expect(instrumentSpan([])).toBe(4)
    expect(instrumentSpan([note('a', 60, 3, 1)])).toBe(4)
    expect(instrumentSpan([note('a', 60, 3, 1.5)])).toBe(8)
    expect(instrumentDuration([note('a', 60, 7, 1)], 120)).toBe(4 + INSTRUMENT_TAIL_SECONDS)
  })
  it('plays the program, then notes at their frames with note-offs before note-ons on one frame; drums on channel 10', () => {
    const events = instrumentEvents({ program: 40, drums: false, notes: [note('a', 60, 0, 1), note('b', 60, 1, 0.5, 64)] }, 120, 1000)
    expect(events[0]).toMatchObject({ frame: 0, kind: SYNTH_PROGRAM, a: 40, channel: 0 })
    const notes = events.filter((e) => e.kind === SYNTH_NOTE_ON || e.kind === SYNTH_NOTE_OFF)
    expect(notes.map((e) => [e.frame, e.kind, e.a, e.b])).toEqual([
      [0, SYNTH_NOTE_ON, 60, 100],
      [500, SYNTH_NOTE_OFF, 60, 0],
      [500, SYNTH_NOTE_ON, 60, 64],
      [750, SYNTH_NOTE_OFF, 60, 0],
    ])
    const drums = instrumentEvents({ program: 0, drums: true, notes: [note('k', 36, 0)] }, 120, 1000)
    expect(new Set(drums.map((e) => e.channel))).toEqual(new Set([DRUM_CHANNEL]))
  })
  it('names each render by notes, instrument and tempo, not by note ids', () => {
    const inst = { program: 0, drums: false, notes: [note('a', 60, 0)] }
    const id = instrumentAudioId(inst, 120)
    expect(instrumentAudioId({ ...inst, notes: [note('other id', 60, 0)] }, 120)).toBe(id)
    expect(instrumentAudioId(inst, 121)).not.toBe(id)
    expect(instrumentAudioId({ ...inst, program: 1 }, 120)).not.toBe(id)
    expect(instrumentAudioId({ ...inst, notes: [note('a', 60, 0, 1, 99)] }, 120)).not.toBe(id)
  })
  it('repairs a stored instrument and refuses what is not one', () => {
    expect(sanitizeInstrument(null)).toBeUndefined()
    expect(sanitizeInstrument({ program: 999, drums: 'yes', notes: [{ id: 'a', key: 60, start: 2 }, { key: 1 }, null] })).toEqual({
      program: 127,
      drums: false,
      notes: [normaliseNote({ id: 'a', key: 60, start: 2 })],
    })
  })
})
