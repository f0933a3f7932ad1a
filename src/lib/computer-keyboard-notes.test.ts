import { describe, expect, it } from 'vitest'
import { keyboardAction, nextOctave, nextVelocity, noteName } from './computer-keyboard-notes.ts'

describe('computer keyboard as a piano', () => {
  it('plays C4 on A at octave 4, the black keys on the row above, up to F5 on L', () => {
    expect(keyboardAction('KeyA', 4)).toEqual({ type: 'note', key: 60 })
    expect(keyboardAction('KeyW', 4)).toEqual({ type: 'note', key: 61 })
    expect(keyboardAction('KeyJ', 4)).toEqual({ type: 'note', key: 71 })
    expect(keyboardAction('KeyK', 4)).toEqual({ type: 'note', key: 72 })
    expect(keyboardAction('KeyL', 4)).toEqual({ type: 'note', key: 74 })
    expect(keyboardAction('KeyA', 2)).toEqual({ type: 'note', key: 36 })
  })
  it('shifts octave with Z/X and velocity with C/V, within range; other keys do nothing', () => {
    expect(keyboardAction('KeyZ', 4)).toEqual({ type: 'octave', change: -1 })
    expect(keyboardAction('KeyV', 4)).toEqual({ type: 'velocity', change: 1 })
    expect(nextOctave(0, -1)).toBe(0)
    expect(nextOctave(8, 1)).toBe(8)
    expect(nextVelocity(120, 1)).toBe(127)
    expect(nextVelocity(10, -1)).toBe(1)
    expect(keyboardAction('Space', 4)).toBeNull()
    expect(keyboardAction('KeyL', 9)).toBeNull()
  })
  it('names keys', () => {
    expect(noteName(60)).toBe('C4')
    expect(noteName(61)).toBe('C#4')
    expect(noteName(21)).toBe('A0')
  })
})
