/**
 * Offline render of a mixer state through the very graph the live mixer plays (buildMixGraph),
 * then the same limiter settings the app's master bus applies, so an export equals what is heard
 * (minus the player's listening volume, which is not part of the mix).
 *
 *   renderMix(state, { sampleRate, onProgress?(0..1), signal? }) → Promise<Float32Array[]> (stereo)
 *     length = the mix's length (where the last track ends), at `sampleRate`.
 *     Aborting rejects at once with an AbortError (the browser cannot stop an offline render
 *     mid-way; the abandoned render finishes in the background and is discarded).
 *   exportMixWav(state, options) → Promise<Blob>   WAV (16-bit PCM) encoded in the WAV worker
 */
import { OfflineAudioContext } from 'standardized-audio-context'
import { LIMITER_SETTINGS } from './master-bus.ts'
import { buildMixGraph, prepareMixContext } from './mixer-graph.ts'
import { mixDuration, type MixerState } from './mixer-model.ts'
import { createRecorderTap, loadRecorderWorklet } from './recorder-worklet.ts'
import { encodeWav } from './workers.ts'

export interface RenderOptions {
  sampleRate: number
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

export class EmptyMixError extends Error {
  constructor() {
    super('Nothing to render: add or enable a track first.')
    this.name = 'EmptyMixError'
  }
}

function abortError(): DOMException {
  return new DOMException('Export cancelled', 'AbortError')
}

export async function renderMix(state: MixerState, options: RenderOptions): Promise<Float32Array[]> {
  const { sampleRate, onProgress, signal } = options
  // Round, not ceil: a track of N frames has duration N/rate, whose float product may land a hair above N.
  const length = Math.round(mixDuration(state) * sampleRate)
  if (length <= 0) throw new EmptyMixError()
  if (signal?.aborted) throw abortError()
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate })
  await Promise.all([prepareMixContext(ctx), onProgress ? loadRecorderWorklet(ctx) : Promise.resolve()])

  const limiter = ctx.createDynamicsCompressor()
  limiter.threshold.value = LIMITER_SETTINGS.threshold
  limiter.knee.value = LIMITER_SETTINGS.knee
  limiter.ratio.value = LIMITER_SETTINGS.ratio
  limiter.attack.value = LIMITER_SETTINGS.attack
  limiter.release.value = LIMITER_SETTINGS.release
  limiter.connect(ctx.destination)
  const graph = buildMixGraph(ctx, state, { destination: limiter })
  graph.start(0, 0)

  if (onProgress) {
    // The offline context has no progress event; a silent tap counts rendered frames instead.
    const tap = createRecorderTap(ctx, { capture: false, blockFrames: Math.max(4096, Math.floor(length / 100)) })
    tap.port.onmessage = (e: MessageEvent<{ type: string; frame?: number }>) => {
      if (e.data.type === 'tick' && e.data.frame !== undefined) onProgress(Math.min(1, e.data.frame / length))
    }
    limiter.connect(tap)
    tap.connect(ctx.destination)
  }

  const rendering = ctx.startRendering()
  const rendered = await new Promise<Awaited<typeof rendering>>((resolve, reject) => {
    const onAbort = () => reject(abortError())
    signal?.addEventListener('abort', onAbort, { once: true })
    rendering.then(
      (b) => {
        signal?.removeEventListener('abort', onAbort)
        resolve(b)
      },
      (err: unknown) => {
        signal?.removeEventListener('abort', onAbort)
        reject(err instanceof Error ? err : new Error(String(err)))
      },
    )
  }).finally(() => graph.dispose())
  onProgress?.(1)
  return [rendered.getChannelData(0), rendered.getChannelData(1)]
}

export async function exportMixWav(state: MixerState, options: RenderOptions): Promise<Blob> {
  const channels = await renderMix(state, options)
  if (options.signal?.aborted) throw abortError()
  return encodeWav(channels, options.sampleRate, 'pcm16')
}
