/**
 * The remix voice as one AudioWorkletNode (audio-worklets/remix-voice-processor.ts): source player,
 * Harmonize / Auto Tune and the sample layers. No input, stereo out; connect it to a channel strip.
 *
 *   await loadRemixVoice(ctx)                       the module once per context (cached, retried on failure)
 *   const voice = createRemixVoice(ctx, options, controls)
 *     options: RemixVoiceOptions (source, layers, playing, position) handed over at construction,
 *              so an offline render has everything before its first quantum
 *     voice.set(name, value)   a control (k-rate; the processor glides, so steps never click)
 *     voice.send(message)      transport: play / pause / seek / loop
 *     voice.onEvent(cb)        position reports (~20 Hz while playing) and 'ended'
 *     voice.dispose()
 */
import { AudioWorkletNode as SacAudioWorkletNode, type IAudioWorkletNode, type TContext } from 'standardized-audio-context'
import workletUrl from '../../../audio-worklets/remix-voice-processor.ts?worker&url'
import {
  REMIX_VOICE_PARAM_NAMES,
  REMIX_VOICE_PROCESSOR,
  type RemixVoiceEvent,
  type RemixVoiceMessage,
  type RemixVoiceOptions,
  type RemixVoiceParamName,
} from '../../../audio-worklets/remix-voice-params.ts'

export type RemixVoiceControls = Record<RemixVoiceParamName, number>

type AnyContext = TContext | BaseAudioContext

const loaded = new WeakMap<object, Promise<void>>()

export function loadRemixVoice(ctx: AnyContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    const worklet = (ctx as { audioWorklet?: { addModule(url: string): Promise<void> } }).audioWorklet
    p = worklet
      ? worklet.addModule(workletUrl)
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the remix preview needs.'))
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  return p
}

export interface RemixVoice {
  readonly node: AudioWorkletNode | IAudioWorkletNode<TContext>
  set(name: RemixVoiceParamName, value: number): void
  send(message: RemixVoiceMessage): void
  onEvent(cb: (event: RemixVoiceEvent) => void): () => void
  dispose(): void
}

export function createRemixVoice(ctx: AnyContext, options: RemixVoiceOptions, controls: RemixVoiceControls): RemixVoice {
  const nodeOptions = {
    numberOfInputs: 0,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    parameterData: { ...controls },
    processorOptions: options,
  }
  let node: AudioWorkletNode | IAudioWorkletNode<TContext>
  try {
    if (typeof BaseAudioContext === 'function' && ctx instanceof BaseAudioContext)
      node = new AudioWorkletNode(ctx, REMIX_VOICE_PROCESSOR, nodeOptions)
    else if (SacAudioWorkletNode) node = new SacAudioWorkletNode(ctx as TContext, REMIX_VOICE_PROCESSOR, nodeOptions as never)
    else throw new Error('AudioWorklet is not supported in this browser.')
  } catch (err) {
    throw new Error(`Could not create the remix voice (was loadRemixVoice(ctx) awaited?): ${(err as Error).message}`, { cause: err })
  }
  const listeners = new Set<(event: RemixVoiceEvent) => void>()
  node.port.onmessage = (e: MessageEvent<RemixVoiceEvent>) => listeners.forEach((cb) => cb(e.data))
  let disposed = false
  return {
    node,
    set(name, value) {
      if (disposed || !REMIX_VOICE_PARAM_NAMES.includes(name) || !Number.isFinite(value)) return
      node.parameters.get(name)?.setValueAtTime(value, ctx.currentTime)
    },
    send(message) {
      if (!disposed) node.port.postMessage(message)
    },
    onEvent(cb) {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    dispose() {
      if (disposed) return
      disposed = true
      listeners.clear()
      node.port.postMessage({ type: 'dispose' } satisfies RemixVoiceMessage)
      node.port.onmessage = null
      node.disconnect()
    },
  }
}
