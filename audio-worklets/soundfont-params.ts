import type { SynthEvent } from './soundfont-sequence.ts'

/** The registered name of the SoundFont processor (soundfont-processor.ts). */
export const SOUNDFONT_PROCESSOR = 'cube-soundfont'

export interface SoundfontProcessorOptions {
  /** The SF2/SF3 bank's bytes (a copy: the node's options are cloned into the audio thread). */
  bank: ArrayBuffer
  /** Sorted by frame, frames counted from the first quantum the processor plays. */
  events: SynthEvent[]
  /** The synthesizer's own reverb and chorus (the offline render must use the same setting). */
  effects: boolean
}

/**
 * What the processor posts: 'started' with the context frame its sequence's frame 0 fell on, 'failed'
 * with a reason; 'applied' answers a played event that asked for it (`ack`) with the context frame of
 * the quantum it sounded in (the keyboard's latency is measured with it).
 */
export type SoundfontProcessorEvent =
  | { type: 'started'; frame: number }
  | { type: 'failed'; message: string }
  | { type: 'ended' }
  | { type: 'applied'; ack: number; frame: number }

/**
 * Played live (a key pressed, a MIDI keyboard): applied at the start of the next quantum the
 * processor renders. `ack`: answer with 'applied'.
 */
export interface SoundfontPlayMessage {
  type: 'play'
  events: Omit<SynthEvent, 'frame'>[]
  ack?: number
}
