/**
 * Plays a list of MIDI events through a spessasynth_core SpessaSynthProcessor, sample-accurately:
 * a quantum is cut at every event's frame. The live node (soundfont-processor.ts) and the offline
 * renderer (src/engine/instruments/gm-render.ts) both call renderQuantum with the same 128-frame
 * grid, so they run the identical arithmetic and give the same samples.
 */
import type { SpessaSynthProcessor } from 'spessasynth_core'

export const SYNTH_NOTE_ON = 0
export const SYNTH_NOTE_OFF = 1
export const SYNTH_PROGRAM = 2
export const SYNTH_CONTROLLER = 3

/** One MIDI event at a frame of the piece. kind: note on (a = key, b = velocity 1 … 127), note off (a = key),
 * program change (a = program), controller (a = controller number, b = value). */
export interface SynthEvent {
  frame: number
  kind: typeof SYNTH_NOTE_ON | typeof SYNTH_NOTE_OFF | typeof SYNTH_PROGRAM | typeof SYNTH_CONTROLLER
  channel: number
  a: number
  b: number
}

/** The MIDI channel of the drums (channel 10 counted from 1). */
export const DRUM_CHANNEL = 9

export class SoundfontSequence {
  /** The next frame to render, counted from the sequence's start. */
  position = 0
  private next = 0

  /** events must be sorted by frame; events of one frame run in the order given. */
  constructor(
    private readonly synth: SpessaSynthProcessor,
    private readonly events: readonly SynthEvent[],
  ) {}

  get finished(): boolean {
    return this.next >= this.events.length
  }

  /** Renders frames [position, position + frames) into left/right from offset, applying due events. */
  renderQuantum(left: Float32Array, right: Float32Array, offset: number, frames: number): void {
    const end = this.position + frames
    let at = this.position
    while (at < end) {
      while (this.next < this.events.length && this.events[this.next]!.frame <= at) this.apply(this.events[this.next++]!)
      const upcoming = this.events[this.next]
      const until = upcoming && upcoming.frame < end ? upcoming.frame : end
      if (until > at) this.synth.process(left, right, offset + (at - this.position), until - at)
      at = until
    }
    this.position = end
  }

  private apply(e: SynthEvent): void {
    applySynthEvent(this.synth, e)
  }
}

/** One event into the synthesizer now (its frame is the caller's business). */
export function applySynthEvent(s: SpessaSynthProcessor, e: Omit<SynthEvent, 'frame'>): void {
  if (e.kind === SYNTH_NOTE_ON) s.noteOn(e.channel, e.a, e.b)
  else if (e.kind === SYNTH_NOTE_OFF) s.noteOff(e.channel, e.a)
  else if (e.kind === SYNTH_PROGRAM) s.programChange(e.channel, e.a)
  else s.controllerChange(e.channel, e.a as Parameters<SpessaSynthProcessor['controllerChange']>[1], e.b)
}
