import '../../../styles/index.css'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../../tests/component/render.tsx'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { useTimelineStore } from '../timeline/timeline-store.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { PianoRollPlayBar } from './PianoRollPlayBar.tsx'
import {
  computerKeyDown,
  computerKeyUp,
  disconnectMidi,
  enableMidi,
  playTrack,
  startRecording,
  stopPlaying,
  stopRecording,
  useInstrumentPlayer,
} from './instrument-player.ts'

// Playing an instrument track by hand. Web MIDI through a test double in Chromium (hot-plug,
// the device picker, note on/off with velocity, the sustain pedal), the computer keyboard, and
// Record notes, on the real stores; the synthesizer and the mixer's clock are doubles here (their
// audio is proven in tests/browser/instrument-track.test.ts and the piano roll's e2e journey).

const live = vi.hoisted(() => ({
  setInstrument: vi.fn(),
  noteOn: vi.fn(),
  noteOff: vi.fn(),
  sustain: vi.fn(),
  allNotesOff: vi.fn(),
  connect: vi.fn(),
  disconnect: vi.fn(),
  measure: vi.fn(),
  dispose: vi.fn(),
  node: {},
}))
vi.mock('../../../engine/instruments/live-instrument.ts', () => ({ createLiveInstrument: vi.fn(async () => live) }))
const clock = vi.hoisted(() => ({ position: null as number | null, playing: false, ended: new Set<() => void>() }))
vi.mock('../../../engine/mixer-engine.ts', () => ({
  mixerEngine: {
    trackInput: vi.fn(async () => ({ strip: true })),
    timelinePositionAt: vi.fn(() => clock.position),
    isPlaying: vi.fn(() => clock.playing),
    play: vi.fn(async () => {
      clock.playing = true
    }),
    pause: vi.fn(() => {
      clock.playing = false
    }),
    position: vi.fn(() => clock.position ?? 0),
    onEnded: vi.fn((cb: () => void) => {
      clock.ended.add(cb)
      return () => clock.ended.delete(cb)
    }),
  },
}))
vi.mock('../recording/count-in.ts', () => ({
  startCountIn: vi.fn(async (_bpm: number, onBeat: (n: number) => void) => {
    for (const n of [4, 3, 2, 1]) onBeat(n)
    return { barEnd: 12.5, done: Promise.resolve() }
  }),
}))

/** A MIDI keyboard as the browser presents one. */
class FakeInput {
  state: 'connected' | 'disconnected' = 'connected'
  manufacturer = ''
  onmidimessage: ((e: { data: Uint8Array }) => void) | null = null
  constructor(
    readonly id: string,
    readonly name: string,
  ) {}
  send(bytes: number[]) {
    this.onmidimessage?.({ data: new Uint8Array(bytes) })
  }
}
function fakeMidi(...devices: FakeInput[]) {
  const inputs = new Map(devices.map((d) => [d.id, d]))
  const access = {
    inputs,
    onstatechange: null as (() => void) | null,
    plug(d: FakeInput) {
      inputs.set(d.id, d)
      access.onstatechange?.()
    },
    unplug(d: FakeInput) {
      d.state = 'disconnected'
      inputs.delete(d.id)
      access.onstatechange?.()
    },
  }
  Object.defineProperty(navigator, 'requestMIDIAccess', { configurable: true, value: vi.fn(async () => access) })
  return access
}

let trackId = ''
beforeEach(async () => {
  vi.clearAllMocks()
  clock.position = null
  clock.playing = false
  useMixerStore.getState().reset()
  useTimelineStore.setState({ countIn: false })
  useInstrumentPlayer.setState({ midi: { status: 'off' }, octave: 4, velocity: 100, down: [] })
  trackId = useMixerStore.getState().addInstrumentTrack({ program: 24 }).id
  await playTrack(trackId)
})
afterEach(() => {
  stopPlaying()
  disconnectMidi()
})

const text = (el: HTMLElement) => el.textContent ?? ''
const options = (el: HTMLElement) =>
  [...el.querySelectorAll<HTMLOptionElement>('select[aria-label="MIDI input"] option')].map((o) => o.text)
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!

describe('MIDI keyboards (Web MIDI test double)', () => {
  it('lists keyboards after Connect, follows hot-plugging, and plays note on/off with velocity and the sustain pedal', async () => {
    const keystation = new FakeInput('k1', 'Keystation 49')
    const access = fakeMidi(keystation)
    const el = render(<PianoRollPlayBar />)
    expect(live.setInstrument).toHaveBeenCalledWith(24, false)
    await settle(() => button(el, 'Connect MIDI keyboard').click())
    expect(options(el)).toEqual(['All MIDI inputs', 'Keystation 49', 'None'])
    expect(text(el)).toContain('1 connected')

    const launchkey = new FakeInput('k2', 'Launchkey Mini')
    await settle(() => access.plug(launchkey))
    expect(options(el)).toEqual(['All MIDI inputs', 'Keystation 49', 'Launchkey Mini', 'None'])
    await settle(() => keystation.send([0x90, 60, 90]))
    await settle(() => launchkey.send([0x91, 67, 30]))
    expect(live.noteOn.mock.calls).toEqual([
      [60, 90],
      [67, 30],
    ])
    expect(useInstrumentPlayer.getState().down).toEqual([60, 67])
    await settle(() => keystation.send([0xb0, 64, 127]))
    expect(live.sustain).toHaveBeenLastCalledWith(true)
    await settle(() => keystation.send([0x90, 60, 0]))
    expect(live.noteOff).toHaveBeenLastCalledWith(60)
    expect(useInstrumentPlayer.getState().down).toEqual([67])

    await settle(() => access.unplug(keystation))
    expect(options(el)).toEqual(['All MIDI inputs', 'Launchkey Mini', 'None'])
    expect(text(el)).toContain('1 connected')
  })

  it('plays only the chosen keyboard, or none', async () => {
    const a = new FakeInput('a', 'A')
    const b = new FakeInput('b', 'B')
    fakeMidi(a, b)
    const el = render(<PianoRollPlayBar />)
    await settle(() => enableMidi())
    const select = el.querySelector<HTMLSelectElement>('select[aria-label="MIDI input"]')!
    const choose = (value: string) =>
      settle(() => {
        select.value = value
        select.dispatchEvent(new Event('change', { bubbles: true }))
      })
    await choose('b')
    await settle(() => a.send([0x90, 60, 100]))
    await settle(() => b.send([0x90, 62, 100]))
    expect(live.noteOn.mock.calls).toEqual([[62, 100]])
    await choose('none')
    await settle(() => b.send([0x90, 64, 100]))
    expect(live.noteOn).toHaveBeenCalledTimes(1)
  })

  it('says in words when MIDI is blocked or missing', async () => {
    Object.defineProperty(navigator, 'requestMIDIAccess', {
      configurable: true,
      value: vi.fn(async () => {
        throw new DOMException('denied', 'SecurityError')
      }),
    })
    const el = render(<PianoRollPlayBar />)
    await settle(() => button(el, 'Connect MIDI keyboard').click())
    expect(el.querySelector('[data-testid="midi-unavailable"]')?.textContent).toBe(
      'MIDI access was blocked. Allow MIDI devices for this site in the browser, then try again.',
    )
    Object.defineProperty(navigator, 'requestMIDIAccess', { configurable: true, value: undefined })
    await settle(() => button(el, 'Try MIDI again').click())
    expect(el.querySelector('[data-testid="midi-unavailable"]')?.textContent).toMatch(/^This browser has no Web MIDI/)
  })
})

describe('the computer keyboard', () => {
  it('plays A as C4, follows Z/X octave and C/V velocity, releases the key it started', async () => {
    let used = false
    await settle(() => (used = computerKeyDown('KeyA')))
    expect(used).toBe(true)
    expect(live.noteOn).toHaveBeenLastCalledWith(60, 100)
    computerKeyDown('KeyX')
    computerKeyDown('KeyC')
    await settle(() => (used = computerKeyUp('KeyA')))
    expect(used).toBe(true)
    expect(live.noteOff).toHaveBeenLastCalledWith(60)
    await settle(() => computerKeyDown('KeyA'))
    expect(live.noteOn).toHaveBeenLastCalledWith(72, 80)
    expect(computerKeyDown('Space')).toBe(false)
  })
})

describe('Record notes', () => {
  it('writes what is played while the mix plays into the track, at the tempo, as one undo step', async () => {
    await settle(() => startRecording())
    expect(mixerEngine.play).toHaveBeenCalledTimes(1)
    expect(useInstrumentPlayer.getState().record.phase).toBe('recording')
    // 120 BPM: timeline second 0.5 is beat 1.
    clock.position = 0.5
    computerKeyDown('KeyA')
    clock.position = 1
    computerKeyUp('KeyA')
    clock.position = 1.25
    computerKeyDown('KeyD')
    clock.position = 2
    const before = useMixerStore.getState().history.past.length
    await settle(() => stopRecording())
    const notes = useMixerStore.getState().tracks[0]!.instrument!.notes
    expect(notes.map((n) => [n.key, n.start, n.length, n.velocity])).toEqual([
      [60, 1, 1, 100],
      [64, 2.5, 1.5, 100],
    ])
    expect(useMixerStore.getState().history.past.length).toBe(before + 1)
    expect(mixerEngine.pause).toHaveBeenCalled()
    expect(useInstrumentPlayer.getState().record.phase).toBe('idle')
  })

  it('with count-in: shows the beats, then plays from the bar after them', async () => {
    useTimelineStore.setState({ countIn: true })
    const el = render(<PianoRollPlayBar />)
    const seen: (number | null)[] = []
    const off = useInstrumentPlayer.subscribe((s) => seen.push(s.record.beat))
    await settle(() => button(el, 'Record notes').click())
    off()
    expect(seen.filter((b) => b !== null)).toEqual([4, 3, 2, 1])
    expect(mixerEngine.play).toHaveBeenCalledWith(expect.anything(), 12.5)
    expect(el.querySelector('[data-testid="notes-recording"]')).not.toBeNull()
    await settle(() => button(el, 'Stop recording').click())
    expect(useInstrumentPlayer.getState().record.phase).toBe('idle')
  })
})
