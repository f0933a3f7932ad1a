/**
 * MIDI keyboards through Web MIDI: the connected inputs (kept current as devices are plugged in
 * and out), the one the user chose (or all of them), and what they play, already read
 * (src/lib/midi-messages.ts).
 *
 *   const midi = await openMidiInputs()        throws MidiUnavailableError with the reason in words
 *   midi.devices() / midi.onDevices(cb)         hot-plug: called whenever the list changes
 *   midi.select('all' | deviceId | null)        null: ignore every keyboard
 *   midi.onEvent(cb)                            note on/off with velocity, the sustain pedal
 *   midi.close()
 */
import { parseMidiMessage, type MidiInputEvent } from '../lib/midi-messages.ts'

export class MidiUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'MidiUnavailableError'
  }
}

export interface MidiDevice {
  id: string
  name: string
}

export type MidiSelection = 'all' | string | null

export interface MidiInputs {
  devices(): MidiDevice[]
  onDevices(cb: (devices: MidiDevice[]) => void): () => void
  selection(): MidiSelection
  select(selection: MidiSelection): void
  onEvent(cb: (event: MidiInputEvent, device: MidiDevice) => void): () => void
  close(): void
}

export async function openMidiInputs(nav: Navigator = navigator): Promise<MidiInputs> {
  if (typeof nav.requestMIDIAccess !== 'function')
    throw new MidiUnavailableError('This browser has no Web MIDI. Chrome, Edge, Opera and Firefox can use a MIDI keyboard.')
  let access: MIDIAccess
  try {
    access = await nav.requestMIDIAccess({ sysex: false })
  } catch (e) {
    const denied = e instanceof DOMException && (e.name === 'SecurityError' || e.name === 'NotAllowedError')
    throw new MidiUnavailableError(
      denied
        ? 'MIDI access was blocked. Allow MIDI devices for this site in the browser, then try again.'
        : 'MIDI devices could not be opened.',
      { cause: e },
    )
  }
  let selection: MidiSelection = 'all'
  const deviceListeners = new Set<(devices: MidiDevice[]) => void>()
  const eventListeners = new Set<(event: MidiInputEvent, device: MidiDevice) => void>()
  const wired = new Set<MIDIInput>()

  const inputs = (): MIDIInput[] => [...access.inputs.values()].filter((i) => i.state !== 'disconnected')
  const describe = (i: MIDIInput): MidiDevice => ({ id: i.id, name: i.name?.trim() || i.manufacturer?.trim() || 'MIDI keyboard' })

  const wire = () => {
    for (const input of inputs()) {
      if (wired.has(input)) continue
      wired.add(input)
      // Setting onmidimessage opens the port; every input is listened to and filtered by the selection.
      input.onmidimessage = (e: MIDIMessageEvent) => {
        if (selection === null || (selection !== 'all' && selection !== input.id)) return
        const event = parseMidiMessage(e.data)
        if (event) for (const cb of eventListeners) cb(event, describe(input))
      }
    }
    for (const input of [...wired]) if (input.state === 'disconnected') wired.delete(input)
  }
  wire()
  access.onstatechange = () => {
    wire()
    const list = inputs().map(describe)
    for (const cb of deviceListeners) cb(list)
  }

  return {
    devices: () => inputs().map(describe),
    onDevices(cb) {
      deviceListeners.add(cb)
      return () => deviceListeners.delete(cb)
    },
    selection: () => selection,
    select(next) {
      selection = next
    },
    onEvent(cb) {
      eventListeners.add(cb)
      return () => eventListeners.delete(cb)
    },
    close() {
      access.onstatechange = null
      for (const input of wired) input.onmidimessage = null
      wired.clear()
      deviceListeners.clear()
      eventListeners.clear()
    },
  }
}
