/**
 * The player's true-peak limiter on the app's audio context (audio-worklets/true-peak-limiter-processor.ts):
 * loaded once per context, then one node per deck. What is limited: every item the deck plays, after
 * its loudness normalisation gain and before the volume, so a song boosted to the listener's
 * loudness target never exceeds −1 dBTP and below the ceiling nothing changes.
 *
 *   loadTruePeakLimiter(ctx): Promise<void>     adds the processor module once per context (and
 *                                                compiles strip.wasm, which it runs on, once per page)
 *   createTruePeakLimiter(ctx, ceilingDb?)       a stereo node (await the load first)
 */
import { AudioWorkletNode as SacAudioWorkletNode, type IAudioContext, type IAudioWorkletNode } from 'standardized-audio-context'
import processorUrl from '../../audio-worklets/true-peak-limiter-processor.ts?worker&url'
import { TRUE_PEAK_LIMITER_PROCESSOR, type TruePeakLimiterProcessorOptions } from '../../audio-worklets/true-peak-limiter-params.ts'
import { loadStripModule } from './strip-wasm.ts'

/** The highest true peak the player lets out (EBU R128's −1 dBTP for distribution). */
export const PLAYER_CEILING_DBTP = -1

const loaded = new WeakMap<object, Promise<void>>()
let stripModule: WebAssembly.Module | null = null

export function loadTruePeakLimiter(ctx: IAudioContext): Promise<void> {
  let p = loaded.get(ctx)
  if (!p) {
    p = ctx.audioWorklet
      ? Promise.all([ctx.audioWorklet.addModule(processorUrl), loadStripModule()]).then(([, module]) => {
          stripModule = module
        })
      : Promise.reject(new Error('This browser does not support AudioWorklet, which the limiter needs.'))
    // A failed load must not poison the cache: the next call retries.
    p.catch(() => loaded.delete(ctx))
    loaded.set(ctx, p)
  }
  return p
}

export function createTruePeakLimiter(ctx: IAudioContext, ceilingDb = PLAYER_CEILING_DBTP): IAudioWorkletNode<IAudioContext> {
  if (!stripModule)
    throw new Error('Could not create the limiter: await loadTruePeakLimiter(ctx) first (the audio engine is not loaded yet)')
  const processorOptions: TruePeakLimiterProcessorOptions = { ceilingDb, stripModule }
  if (!SacAudioWorkletNode) throw new Error('This browser does not support AudioWorklet, which the limiter needs.')
  return new SacAudioWorkletNode(ctx, TRUE_PEAK_LIMITER_PROCESSOR, {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [2],
    channelCount: 2,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
    processorOptions,
  })
}
