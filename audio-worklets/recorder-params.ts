/**
 * The recorder tap's contract between the audio thread (recorder-processor.ts) and the main thread
 * (src/engine/recorder-worklet.ts).
 *
 * Two transports for the same frames:
 * - ring (the normal one): processorOptions.ring is a SampleRing's SharedArrayBuffer; every quantum
 *   is copied into it and the main thread drains it; nothing is posted per block and nothing is
 *   allocated on the audio thread. A progress tap's ring has no channels and only counts frames.
 * - messages (fallback where SharedArrayBuffer is unavailable: a page without cross-origin
 *   isolation): the processor gathers `blockFrames` and posts each block, transferring it, then
 *   allocates the next one; a progress tap posts ticks.
 */
export const RECORDER_PROCESSOR = 'recorder-processor'

export interface RecorderOptions {
  /** Frames per posted block (messages transport); the main thread reads the ring in blocks of this size too. */
  blockFrames?: number
  channels?: 1 | 2
  /** false: a progress tap, no audio is kept. */
  capture?: boolean
  ring?: SharedArrayBuffer
}

/** 'flush' answers 'flushed' once every frame so far is handed over; 'stop' also ends the processor. */
export type RecorderCommand = 'flush' | 'stop'

export type RecorderEvent =
  | { type: 'block'; startFrame: number; channels: Float32Array[] }
  | { type: 'tick'; frame: number }
  | { type: 'flushed' }
