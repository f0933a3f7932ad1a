/**
 * Loads audio-worklets/recorder-processor.ts into a context (once per context) and creates taps.
 *
 *   loadRecorderWorklet(ctx)
 *   createRecorderTap(ctx, { channels, blockFrames, capture }) → AudioWorkletNode
 * See the processor's header for the messages it posts.
 */
import { AudioWorkletNode, type IAudioWorkletNode } from 'standardized-audio-context'
import recorderUrl from '../../audio-worklets/recorder-processor.ts?worker&url'
import type { AnyAudioContext } from './mixer-audio.ts'

const loaded = new WeakMap<AnyAudioContext, Promise<void>>()

export function loadRecorderWorklet(ctx: AnyAudioContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    p = ctx.audioWorklet!.addModule(recorderUrl)
    loaded.set(ctx, p)
    p.catch(() => loaded.delete(ctx))
  }
  return p
}

export interface RecorderTapOptions {
  channels?: 1 | 2
  blockFrames?: number
  /** false: only report progress ticks (offline renders). */
  capture?: boolean
}

export function createRecorderTap(ctx: AnyAudioContext, options: RecorderTapOptions = {}): IAudioWorkletNode<AnyAudioContext> {
  const channels = options.channels ?? 1
  return new AudioWorkletNode!(ctx, 'recorder-processor', {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [1],
    channelCount: channels,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
    processorOptions: { channels, blockFrames: options.blockFrames ?? 4096, capture: options.capture !== false },
  })
}
