/**
 * An instrument to play by hand: the SoundFont synthesizer in its AudioWorklet (gm-live.ts) fed
 * note-on/off and the sustain pedal as they happen, heard through the track's channel strip. Each
 * event reaches the audio thread as a message and sounds at the start of the next quantum it renders.
 *
 *   const live = await createLiveInstrument(ctx)
 *   live.setInstrument(program, drums); live.connect(stripInput)
 *   live.noteOn(key, velocity) / noteOff(key) / sustain(down) / allNotesOff()
 *   live.measure(key, velocity) → the context frame the note sounded in, and the frame when it was sent
 */
import type { IAudioContext, IAudioNode, IAudioWorkletNode } from 'standardized-audio-context'
import type { SoundfontPlayMessage, SoundfontProcessorEvent } from '../../../audio-worklets/soundfont-params.ts'
import { DRUM_CHANNEL, SYNTH_CONTROLLER, SYNTH_NOTE_OFF, SYNTH_NOTE_ON, SYNTH_PROGRAM } from '../../../audio-worklets/soundfont-sequence.ts'
import type { AnyAudioContext } from '../mixer-audio.ts'
import { createSoundfontNode, type SoundfontNode } from './gm-live.ts'
import { INSTRUMENT_TRACK_GAIN } from './note-track.ts'

const SUSTAIN_PEDAL = 64
const ALL_NOTES_OFF = 123

export interface LiveInstrument {
  readonly node: AudioWorkletNode | IAudioWorkletNode<IAudioContext>
  setInstrument(program: number, drums: boolean): void
  noteOn(key: number, velocity: number): void
  noteOff(key: number): void
  sustain(down: boolean): void
  allNotesOff(): void
  connect(destination: IAudioNode<AnyAudioContext> | AudioNode): void
  disconnect(): void
  /** Plays a note and resolves with the frame it sounded in and the context frame when it was sent. */
  measure(key: number, velocity: number): Promise<{ sentFrame: number; soundedFrame: number }>
  dispose(): void
}

export async function createLiveInstrument(ctx: BaseAudioContext | IAudioContext): Promise<LiveInstrument> {
  const sf: SoundfontNode = await createSoundfontNode(ctx, [], { effects: false })
  await sf.started
  // The same lift as the track's render (note-track.ts), so a note sounds alike played and drawn.
  const gain = ctx.createGain()
  gain.gain.value = INSTRUMENT_TRACK_GAIN
  sf.node.connect(gain as never)
  let channel = 0
  const pending = new Map<number, (frame: number) => void>()
  let nextAck = 1
  sf.node.port.onmessage = (e: MessageEvent<SoundfontProcessorEvent>) => {
    if (e.data.type !== 'applied') return
    pending.get(e.data.ack)?.(e.data.frame)
    pending.delete(e.data.ack)
  }
  const send = (message: SoundfontPlayMessage) => sf.node.port.postMessage(message)
  const play = (kind: number, a: number, b: number) => send({ type: 'play', events: [{ kind: kind as never, channel, a, b }] })
  let connected: (IAudioNode<AnyAudioContext> | AudioNode) | null = null
  return {
    node: sf.node,
    setInstrument(program, drums) {
      play(SYNTH_CONTROLLER, ALL_NOTES_OFF, 0)
      channel = drums ? DRUM_CHANNEL : 0
      send({
        type: 'play',
        events: [
          { kind: SYNTH_PROGRAM, channel, a: program, b: 0 },
          // Full level and dry, as the track's render (note-track.ts instrumentEvents): the strip mixes both.
          { kind: SYNTH_CONTROLLER, channel, a: 7, b: 127 },
          { kind: SYNTH_CONTROLLER, channel, a: 91, b: 0 },
          { kind: SYNTH_CONTROLLER, channel, a: 93, b: 0 },
        ],
      })
    },
    noteOn: (key, velocity) => play(SYNTH_NOTE_ON, key, Math.max(1, Math.min(127, Math.round(velocity)))),
    noteOff: (key) => play(SYNTH_NOTE_OFF, key, 0),
    sustain: (down) => play(SYNTH_CONTROLLER, SUSTAIN_PEDAL, down ? 127 : 0),
    allNotesOff: () => {
      play(SYNTH_CONTROLLER, SUSTAIN_PEDAL, 0)
      play(SYNTH_CONTROLLER, ALL_NOTES_OFF, 0)
    },
    connect(destination) {
      if (connected === destination) return
      if (connected) gain.disconnect()
      gain.connect(destination as never)
      connected = destination
    },
    disconnect() {
      if (connected) gain.disconnect()
      connected = null
    },
    measure(key, velocity) {
      const ack = nextAck++
      const sentFrame = Math.round(ctx.currentTime * ctx.sampleRate)
      const sounded = new Promise<number>((resolve) => pending.set(ack, resolve))
      send({ type: 'play', events: [{ kind: SYNTH_NOTE_ON, channel, a: key, b: velocity }], ack })
      return sounded.then((soundedFrame) => ({ sentFrame, soundedFrame }))
    },
    dispose() {
      pending.clear()
      gain.disconnect()
      sf.dispose()
    },
  }
}
