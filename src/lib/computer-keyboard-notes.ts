/**
 * The computer keyboard as a piano, in the layout most DAWs share: the home row plays the white
 * keys from C (A S D F G H J K L), the row above the black keys (W E, T Y U, O), Z and X shift the
 * octave, C and V the velocity. Keys are read by their physical position (KeyboardEvent.code), so
 * the layout is the same on AZERTY or QWERTZ keyboards.
 */
const SEMITONE_OF: Record<string, number> = {
  KeyA: 0,
  KeyW: 1,
  KeyS: 2,
  KeyE: 3,
  KeyD: 4,
  KeyF: 5,
  KeyT: 6,
  KeyG: 7,
  KeyY: 8,
  KeyH: 9,
  KeyU: 10,
  KeyJ: 11,
  KeyK: 12,
  KeyO: 13,
  KeyL: 14,
}

export const DEFAULT_OCTAVE = 4
export const MIN_OCTAVE = 0
export const MAX_OCTAVE = 8
export const DEFAULT_KEY_VELOCITY = 100

export type KeyboardAction = { type: 'note'; key: number } | { type: 'octave'; change: -1 | 1 } | { type: 'velocity'; change: -1 | 1 }

/** What a key does at this octave (C of octave 4 = MIDI 60), or null for a key the piano ignores. */
export function keyboardAction(code: string, octave: number): KeyboardAction | null {
  const semitone = SEMITONE_OF[code]
  if (semitone !== undefined) {
    const key = (octave + 1) * 12 + semitone
    return key >= 0 && key <= 127 ? { type: 'note', key } : null
  }
  if (code === 'KeyZ') return { type: 'octave', change: -1 }
  if (code === 'KeyX') return { type: 'octave', change: 1 }
  if (code === 'KeyC') return { type: 'velocity', change: -1 }
  if (code === 'KeyV') return { type: 'velocity', change: 1 }
  return null
}

/** Velocity steps of C and V: twenty, within 1 … 127. */
export const nextVelocity = (velocity: number, change: -1 | 1): number => Math.max(1, Math.min(127, velocity + change * 20))

export const nextOctave = (octave: number, change: -1 | 1): number => Math.max(MIN_OCTAVE, Math.min(MAX_OCTAVE, octave + change))

/** 'C4', 'F#3': the name of a MIDI key. */
export function noteName(key: number): string {
  const names = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B']
  return `${names[((key % 12) + 12) % 12]}${Math.floor(key / 12) - 1}`
}
