import { describe, expect, it } from 'vitest'
import { parseMidiMessage } from './midi-messages.ts'

describe('parseMidiMessage', () => {
  it('reads note on with its velocity on any channel', () => {
    expect(parseMidiMessage([0x90, 60, 100])).toEqual({ type: 'noteOn', key: 60, velocity: 100 })
    expect(parseMidiMessage([0x9f, 72, 1])).toEqual({ type: 'noteOn', key: 72, velocity: 1 })
  })
  it('reads note off, and note on with velocity 0 as note off', () => {
    expect(parseMidiMessage([0x80, 60, 64])).toEqual({ type: 'noteOff', key: 60 })
    expect(parseMidiMessage([0x93, 61, 0])).toEqual({ type: 'noteOff', key: 61 })
  })
  it('reads the sustain pedal (CC 64) down from 64 up', () => {
    expect(parseMidiMessage([0xb0, 64, 127])).toEqual({ type: 'sustain', down: true })
    expect(parseMidiMessage([0xb0, 64, 64])).toEqual({ type: 'sustain', down: true })
    expect(parseMidiMessage([0xb0, 64, 63])).toEqual({ type: 'sustain', down: false })
  })
  it('ignores other messages and short or missing data', () => {
    expect(parseMidiMessage([0xb0, 7, 100])).toBeNull()
    expect(parseMidiMessage([0xe0, 0, 64])).toBeNull()
    expect(parseMidiMessage([0xf8])).toBeNull()
    expect(parseMidiMessage([0x90, 60])).toBeNull()
    expect(parseMidiMessage(null)).toBeNull()
  })
})
