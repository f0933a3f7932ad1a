/**
 * What a MIDI keyboard says, read from the raw bytes of a Web MIDI message (any channel: a
 * keyboard's channel setting should not decide whether it plays). Running status never reaches
 * Web MIDI (the browser delivers whole messages), so each message stands alone.
 */
export type MidiInputEvent =
  | { type: 'noteOn'; key: number; velocity: number }
  | { type: 'noteOff'; key: number }
  | { type: 'sustain'; down: boolean }

const NOTE_OFF = 0x80
const NOTE_ON = 0x90
const CONTROL_CHANGE = 0xb0
const SUSTAIN_PEDAL = 64

export function parseMidiMessage(data: ArrayLike<number> | null | undefined): MidiInputEvent | null {
  if (!data || data.length < 3) return null
  const status = data[0]! & 0xf0
  const a = data[1]! & 0x7f
  const b = data[2]! & 0x7f
  if (status === NOTE_ON) return b === 0 ? { type: 'noteOff', key: a } : { type: 'noteOn', key: a, velocity: b }
  if (status === NOTE_OFF) return { type: 'noteOff', key: a }
  // Half-pedal values count as down from the middle, as the MIDI spec's on/off switch reading does.
  if (status === CONTROL_CHANGE && a === SUSTAIN_PEDAL) return { type: 'sustain', down: b >= 64 }
  return null
}
