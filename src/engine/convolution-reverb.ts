/**
 * The convolution reverb (audio-worklets/convolution-reverb-processor.ts, a WebAssembly kernel) on a
 * Web Audio context: the same response convolved to the same bits on every render, unlike a
 * ConvolverNode, which convolves a long response's tail on a background thread and so can differ
 * from one render of a score to the next when the machine is busy.
 *
 *   loadConvolutionReverb(ctx): Promise<WebAssembly.Module>   compiles the kernel (once per page) and
 *                                                             adds the processor (once per context)
 *   createConvolutionReverb(ctx, module, left, right)         a stereo node, normalised as a ConvolverNode
 *
 * Nothing is fetched until a render asks for the reverb.
 */
import processorUrl from '../../audio-worklets/convolution-reverb-processor.ts?worker&url'
import wasmUrl from '../../audio-worklets/wasm/reverb.wasm?url'
import { CONVOLUTION_REVERB_PROCESSOR, type ConvolutionReverbProcessorOptions } from '../../audio-worklets/convolution-reverb-params.ts'

let compiled: Promise<WebAssembly.Module> | null = null
const loaded = new WeakMap<BaseAudioContext, Promise<void>>()

/** The compiled kernel; a failed fetch or compile is not cached, so the next call retries. */
export function reverbModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const p = fetch(wasmUrl)
      .then((res) => {
        if (!res.ok) throw new Error(`Could not load the reverb (reverb.wasm): the server answered ${res.status}`)
        return res.arrayBuffer()
      })
      .then((bytes) => WebAssembly.compile(bytes))
    compiled = p
    p.catch(() => {
      if (compiled === p) compiled = null
    })
  }
  return compiled
}

export async function loadConvolutionReverb(ctx: BaseAudioContext): Promise<WebAssembly.Module> {
  let p = loaded.get(ctx)
  if (!p) {
    p = ctx.audioWorklet
      ? ctx.audioWorklet.addModule(processorUrl)
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the reverb needs.'))
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  const [module] = await Promise.all([reverbModule(), p])
  return module
}

export function createConvolutionReverb(
  ctx: BaseAudioContext,
  module: WebAssembly.Module,
  left: Float32Array,
  right: Float32Array,
): AudioWorkletNode {
  const processorOptions: ConvolutionReverbProcessorOptions = { module, left, right, normalise: true }
  return new AudioWorkletNode(ctx, CONVOLUTION_REVERB_PROCESSOR, {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    channelCount: 2,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
    processorOptions,
  })
}
