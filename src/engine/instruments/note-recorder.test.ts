import { describe, expect, it } from 'vitest'
import { NoteRecorder } from './note-recorder.ts'
import { MIN_NOTE_BEATS } from './note-track.ts'

// 120 BPM from timeline second 0: one beat is half a second.
const recorder = () => {
  let n = 0
  return new NoteRecorder(
    (s) => s * 2,
    () => `n${++n}`,
  )
}

describe('NoteRecorder', () => {
  it('turns presses and releases into notes in beats with their velocity', () => {
    const r = recorder()
    r.noteOn(60, 100, 0.5)
    r.noteOn(64, 80, 0.75)
    r.noteOff(60, 1.0)
    r.noteOff(64, 2.0)
    expect(r.finish(3)).toEqual([
      { id: 'n1', key: 60, start: 1, length: 1, velocity: 100 },
      { id: 'n2', key: 64, start: 1.5, length: 2.5, velocity: 80 },
    ])
  })
  it('holds released keys while the sustain pedal is down, ending them when it lifts', () => {
    const r = recorder()
    r.sustain(true, 0)
    r.noteOn(60, 90, 0.5)
    r.noteOff(60, 0.6)
    r.noteOn(62, 90, 1)
    r.noteOff(62, 1.1)
    r.sustain(false, 2)
    r.noteOn(64, 90, 2.5)
    r.noteOff(64, 3)
    const notes = r.finish(4)
    expect(notes.map((n) => [n.key, n.start, n.length])).toEqual([
      [60, 1, 3],
      [62, 2, 2],
      [64, 5, 1],
    ])
  })
  it('ends a key pressed again before its release, and keys still down when recording stops', () => {
    const r = recorder()
    r.noteOn(60, 100, 0)
    r.noteOn(60, 100, 1)
    r.noteOn(67, 100, 1.5)
    const notes = r.finish(2)
    expect(notes.map((n) => [n.key, n.start, n.length])).toEqual([
      [60, 0, 2],
      [60, 2, 2],
      [67, 3, 1],
    ])
  })
  it('drops notes wholly before the track begins and clips those that straddle it; a tap is never shorter than the minimum', () => {
    const r = new NoteRecorder(
      (s) => (s - 1) * 2,
      () => 'x',
    )
    r.noteOn(60, 100, 0.2)
    r.noteOff(60, 0.5)
    r.noteOn(62, 100, 0.75)
    r.noteOff(62, 1.5)
    r.noteOn(64, 100, 2)
    r.noteOff(64, 2)
    const notes = r.finish(3)
    expect(notes.map((n) => [n.key, n.start, n.length])).toEqual([
      [62, 0, 1],
      [64, 2, MIN_NOTE_BEATS],
    ])
  })
})
