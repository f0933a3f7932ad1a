/**
 * The instrument engine's live half: one AudioWorkletNode (audio-worklets/soundfont-processor.ts)
 * that plays a MIDI event list through the same SoundFont synthesizer and bank as gm-render.ts.
 * For the studio's instrument tracks; the generator renders offline.
 *
 *   const node = await createSoundfontNode(ctx, events, { effects })
 *   node.started → the context frame on which the events' frame 0 sounded
 */
import { AudioWorkletNode as SacAudioWorkletNode, type IAudioContext, type IAudioWorkletNode } from 'standardized-audio-context'
import workletUrl from '../../../audio-worklets/soundfont-processor.ts?worker&url'
import {
  SOUNDFONT_PROCESSOR,
  type SoundfontProcessorEvent,
  type SoundfontProcessorOptions,
} from '../../../audio-worklets/soundfont-params.ts'
import type { SynthEvent } from '../../../audio-worklets/soundfont-sequence.ts'
import { GmBankError, loadGmBankBytes } from './gm-bank.ts'

/** A native context (offline tests, the generator) or the app's standardized-audio-context one (the mixer). */
type AnyContext = BaseAudioContext | IAudioContext

const loaded = new WeakMap<AnyContext, Promise<void>>()

function loadModule(ctx: AnyContext): Promise<void> {
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

export interface SoundfontNode<N = AudioWorkletNode | IAudioWorkletNode<IAudioContext>> {
  readonly node: N
  /** Resolves with the context frame of the events' frame 0; rejects if the synthesizer failed. */
  readonly started: Promise<number>
  dispose(): void
}

export async function createSoundfontNode(
  ctx: BaseAudioContext,
  events: SynthEvent[],
  options?: { effects?: boolean },
): Promise<SoundfontNode<AudioWorkletNode>>
export async function createSoundfontNode(
  ctx: IAudioContext,
  events: SynthEvent[],
  options?: { effects?: boolean },
): Promise<SoundfontNode<IAudioWorkletNode<IAudioContext>>>
export async function createSoundfontNode(ctx: AnyContext, events: SynthEvent[], options?: { effects?: boolean }): Promise<SoundfontNode>
export async function createSoundfontNode(
  ctx: AnyContext,
  events: SynthEvent[],
  options: { effects?: boolean } = {},
): Promise<SoundfontNode> {
  const [bank] = await Promise.all([loadGmBankBytes(), loadModule(ctx)])
  const processorOptions: SoundfontProcessorOptions = { bank: bank.slice(0), events, effects: options.effects ?? true }
  const nodeOptions = { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [2], processorOptions }
  let node: AudioWorkletNode | IAudioWorkletNode<IAudioContext>
  if (typeof BaseAudioContext === 'function' && ctx instanceof BaseAudioContext)
    node = new AudioWorkletNode(ctx, SOUNDFONT_PROCESSOR, nodeOptions)
  else if (SacAudioWorkletNode) node = new SacAudioWorkletNode(ctx as IAudioContext, SOUNDFONT_PROCESSOR, nodeOptions)
  else throw new GmBankError('This browser does not support AudioWorklet, which the instruments need.')
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
