import { describe, expect, it } from 'vitest'
import { MidiFileError, readMidiFile, writeMidiFile } from './midi-file.ts'

const piano = {
  name: 'Piano',
  program: 0,
  drums: false,
  notes: [
    { key: 60, start: 0, length: 1, velocity: 100 },
    { key: 64, start: 1, length: 0.5, velocity: 80 },
    { key: 67, start: 2.25, length: 1.75, velocity: 60 },
  ],
}
const bass = { name: 'Upright', program: 32, drums: false, notes: [{ key: 36, start: 0, length: 4, velocity: 90 }] }
const kit = { name: 'Drums', program: 0, drums: true, notes: [{ key: 36, start: 0, length: 0.25, velocity: 127 }] }

describe('MIDI files', () => {
  it('writes tracks and reads them back: programs, drums on channel 10, names, tempo, notes in seconds', async () => {
    const bytes = await writeMidiFile([piano, bass, kit], 90, 'Song')
    expect(String.fromCharCode(...bytes.slice(0, 4))).toBe('MThd')
    const back = await readMidiFile(bytes.buffer, 'song.mid')
    expect(back.bpm).toBeCloseTo(90, 3)
    expect(back.parts.map((p) => [p.name, p.program, p.drums])).toEqual([
      ['Piano', 0, false],
      ['Upright', 32, false],
      ['Drums', 0, true],
    ])
    const beat = 60 / 90
    const notes = back.parts[0]!.notes
    expect(notes.map((n) => n.key)).toEqual([60, 64, 67])
    expect(notes.map((n) => n.velocity)).toEqual([100, 80, 60])
    notes.forEach((n, i) => {
      expect(n.seconds).toBeCloseTo(piano.notes[i]!.start * beat, 3)
      expect(n.lengthSeconds).toBeCloseTo(piano.notes[i]!.length * beat, 3)
    })
  })
  it('refuses what is not a MIDI file, or has no notes, in words', async () => {
    await expect(readMidiFile(new TextEncoder().encode('hello, not midi').buffer, 'x.mid')).rejects.toThrow(MidiFileError)
    await expect(readMidiFile(new TextEncoder().encode('hello, not midi').buffer, 'x.mid')).rejects.toThrow(/not a MIDI file/)
    const empty = await writeMidiFile([{ ...piano, notes: [] }], 120, 'Empty')
    await expect(readMidiFile(empty.buffer, 'empty.mid')).rejects.toThrow(/has no notes/)
    await expect(readMidiFile(new ArrayBuffer(5 * 1024 * 1024), 'big.mid')).rejects.toThrow(/larger than 4 MB/)
  })
})
