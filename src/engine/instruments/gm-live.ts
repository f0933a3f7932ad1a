/**
 * The instrument engine's live half: one AudioWorkletNode (audio-worklets/soundfont-processor.ts)
 * that plays a MIDI event list through the same SoundFont synthesizer and bank as gm-render.ts.
 * For the studio's instrument tracks; the generator renders offline.
 *
 *   const node = await createSoundfontNode(ctx, events, { effects })
 *   node.started → the context frame on which the events' frame 0 sounded
 */
import workletUrl from '../../../audio-worklets/soundfont-processor.ts?worker&url'
import {
  SOUNDFONT_PROCESSOR,
  type SoundfontProcessorEvent,
  type SoundfontProcessorOptions,
} from '../../../audio-worklets/soundfont-params.ts'
import type { SynthEvent } from '../../../audio-worklets/soundfont-sequence.ts'
import { GmBankError, loadGmBankBytes } from './gm-bank.ts'

const loaded = new WeakMap<BaseAudioContext, Promise<void>>()

function loadModule(ctx: BaseAudioContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    p = ctx.audioWorklet
      ? ctx.audioWorklet.addModule(workletUrl)
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the instruments need.'))
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  return p
}

export interface SoundfontNode {
  readonly node: AudioWorkletNode
  /** Resolves with the context frame of the events' frame 0; rejects if the synthesizer failed. */
  readonly started: Promise<number>
  dispose(): void
}

export async function createSoundfontNode(
  ctx: BaseAudioContext,
  events: SynthEvent[],
  options: { effects?: boolean } = {},
): Promise<SoundfontNode> {
  const [bank] = await Promise.all([loadGmBankBytes(), loadModule(ctx)])
  const processorOptions: SoundfontProcessorOptions = { bank: bank.slice(0), events, effects: options.effects ?? true }
  const node = new AudioWorkletNode(ctx, SOUNDFONT_PROCESSOR, {
    numberOfInputs: 0,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    processorOptions,
  })
  const started = new Promise<number>((resolve, reject) => {
    node.port.onmessage = (e: MessageEvent<SoundfontProcessorEvent>) => {
      if (e.data.type === 'started') resolve(e.data.frame)
      else if (e.data.type === 'failed') reject(new GmBankError(`The instrument synthesizer could not start: ${e.data.message}`))
    }
  })
  return {
    node,
    started,
    dispose: () => {
      node.port.onmessage = null
      node.disconnect()
    },
  }
}
