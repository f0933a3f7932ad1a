import { describe, expect, it } from 'vitest'
import { arrangedNotes } from './arranged-notes.ts'
import { normaliseClip } from '../arrangement/clip.ts'
import type { Note } from './note-track.ts'

// 120 BPM: a beat is 0.5 s; a bar 2 s. The render is one bar plus a 2 s tail.
const notes: Note[] = [
  { id: 'a', key: 60, start: 0, length: 1, velocity: 100 },
  { id: 'b', key: 64, start: 2, length: 2, velocity: 90 },
]
const track = (clips?: ReturnType<typeof normaliseClip>[]) => ({
  id: 't',
  offset: 0,
  duration: 4,
  clips,
  instrument: { program: 0, drums: false, notes },
})
const simple = (n: ReturnType<typeof arrangedNotes>) => n.map((x) => [x.key, x.start, x.length])

describe('arrangedNotes', () => {
  it('is the notes themselves for a track played whole from 0', () => {
    expect(simple(arrangedNotes(track(), 120))).toEqual([
      [60, 0, 1],
      [64, 2, 2],
    ])
  })
  it('follows a moved clip', () => {
    const clips = [normaliseClip({ id: 'c', start: 3, sourceStart: 0, sourceEnd: 4, length: 4 }, 4)]
    expect(simple(arrangedNotes(track(clips), 120))).toEqual([
      [60, 6, 1],
      [64, 8, 2],
    ])
  })
  it('repeats a looped bar, cutting each note at the loop and the clip ends', () => {
    const clips = [normaliseClip({ id: 'c', start: 0, sourceStart: 0, sourceEnd: 2, length: 5 }, 4)]
    expect(simple(arrangedNotes(track(clips), 120))).toEqual([
      [60, 0, 1],
      [64, 2, 2],
      [60, 4, 1],
      [64, 6, 2],
      [60, 8, 1],
    ])
  })
  it('drops notes trimmed off the head and keeps those after it in place', () => {
    const clips = [normaliseClip({ id: 'c', start: 0.5, sourceStart: 0.5, sourceEnd: 4, length: 3.5 }, 4)]
    expect(simple(arrangedNotes(track(clips), 120))).toEqual([[64, 2, 2]])
  })
})
