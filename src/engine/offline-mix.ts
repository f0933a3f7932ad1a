/**
 * Offline render of a mixer state through the code the live mixer plays, then the app's master bus
 * itself (createMasterBus: limiter, clip guard) at unity volume, so an export equals what is heard
 * (minus the player's listening volume, which is not part of the mix).
 *
 *   renderMix(state, { sampleRate, onProgress?(0..1), signal?, engine? }) → Promise<Float32Array[]>
 *     Stereo, length = the mix's length (where the last track ends) at `sampleRate`.
 *     engine 'workers' (the default where Web Workers exist): every track's channel strip runs in
 *       a pool of workers (src/engine/stem-render.ts: the worklet's own chain, quantum by quantum,
 *       fed what the track's source feeds the worklet), the stems are summed, the master strip runs
 *       the same way in a worker, and its output goes through the master bus in a native
 *       OfflineAudioContext (no worklet module there, so it has its own thread). Uses every
 *       core: Chromium renders all offline contexts holding an AudioWorklet on ONE shared thread
 *       per page, so splitting the graph over contexts buys nothing (measured in
 *       bench/browser/export.bench.ts). Differs from 'graph' only by float summation order
 *       (tests/browser/stem-render.test.ts, tests/e2e/studio.spec.ts: below -90 dBFS).
 *     engine 'graph': the live graph as is (buildMixGraph: one channel-strip worklet per track,
 *       the master strip) in one OfflineAudioContext: the reference the export is tested against.
 *     Aborting rejects at once with an AbortError; the workers are terminated (a master-bus pass
 *     already under way finishes in the background and is discarded: a browser cannot stop an
 *     offline render mid-way).
 *   exportMixWav(state, { ...options, format? }) → Promise<Blob>   WAV encoded in the WAV worker:
 *     'pcm16' (default) or 'float32' (the render's samples exactly)
 */
import { OfflineAudioContext, type IAudioNode, type IOfflineAudioContext } from 'standardized-audio-context'
import { createMasterBus } from './master-bus.ts'
import { buildMixGraph, prepareMixContext } from './mixer-graph.ts'
import { audioBufferFor, type AnyAudioContext } from './mixer-audio.ts'
import { mixDuration, type MixerState } from './mixer-model.ts'
import { createProgressTap, loadRecorderWorklet } from './recorder-worklet.ts'
import { abortError, renderMasterStripInWorker, renderStemsInWorkers } from './stem-render.ts'
import { encodeWav, type WavFormat } from './workers.ts'

export type MixEngine = 'workers' | 'graph'

export interface RenderOptions {
  sampleRate: number
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /** 'workers' (default where available) or 'graph' (the live graph in one context); see above. */
  engine?: MixEngine
}

export class EmptyMixError extends Error {
  constructor() {
    super('Nothing to render: add a track first.')
    this.name = 'EmptyMixError'
  }
}

/** The app's master bus (limiter, clip guard) rebuilt on the offline context, at unity volume. */
function masterBusInto(ctx: IOfflineAudioContext): IAudioNode<AnyAudioContext> {
  return createMasterBus(ctx).input as unknown as IAudioNode<AnyAudioContext>
}

/** Renders one context; a silent recorder tap reports progress (offline contexts have no event). */
async function renderContext(
  length: number,
  sampleRate: number,
  build: (ctx: IOfflineAudioContext) => { tapFrom: IAudioNode<AnyAudioContext>; dispose: () => void },
  onProgress: ((f: number) => void) | undefined,
  signal: AbortSignal | undefined,
  strips = true,
): Promise<Float32Array[]> {
  if (signal?.aborted) throw abortError()
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate })
  await Promise.all([strips ? prepareMixContext(ctx) : Promise.resolve(), onProgress ? loadRecorderWorklet(ctx) : Promise.resolve()])
  const { tapFrom, dispose } = build(ctx)
  // An abandoned render keeps running in the background; its progress must not revive the bar.
  const progress =
    onProgress &&
    createProgressTap(ctx, length, (frame) => {
      if (!signal?.aborted) onProgress(Math.min(1, frame / length))
    })
  if (progress) {
    tapFrom.connect(progress.node as never)
    progress.node.connect(ctx.destination)
  }
  try {
    const rendered = await new Promise<Awaited<ReturnType<typeof ctx.startRendering>>>((resolve, reject) => {
      const onAbort = () => reject(abortError())
      signal?.addEventListener('abort', onAbort, { once: true })
      ctx.startRendering().then(
        (b) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(b)
        },
        (err: unknown) => {
          signal?.removeEventListener('abort', onAbort)
          reject(err instanceof Error ? err : new Error(String(err)))
        },
      )
    })
    return [rendered.getChannelData(0), rendered.getChannelData(1)]
  } finally {
    progress?.dispose()
    dispose()
  }
}

export async function renderMix(state: MixerState, options: RenderOptions): Promise<Float32Array[]> {
  const { sampleRate, onProgress, signal } = options
  // Round, not ceil: a track of N frames has duration N/rate, whose float product may land a hair above N.
  const length = Math.round(mixDuration(state) * sampleRate)
  if (length <= 0) throw new EmptyMixError()
  const engine = options.engine ?? (typeof Worker === 'undefined' ? 'graph' : 'workers')

  if (engine === 'graph') {
    const out = await renderContext(
      length,
      sampleRate,
      (ctx) => {
        const bus = masterBusInto(ctx)
        const graph = buildMixGraph(ctx, state, { destination: bus })
        graph.start(0, 0)
        return { tapFrom: bus, dispose: () => graph.dispose() }
      },
      onProgress,
      signal,
    )
    onProgress?.(1)
    return out
  }

  // The track strips are nearly all of the work; the master strip and bus are two quick passes.
  const TRACKS_SHARE = 0.95
  const sum = await renderStemsInWorkers(state.tracks, {
    length,
    sampleRate,
    signal,
    onProgress: onProgress && ((f) => onProgress(TRACKS_SHARE * f)),
  })
  const mastered = await renderMasterStripInWorker(sum, state.master, sampleRate, signal)
  onProgress?.((1 + TRACKS_SHARE) / 2)
  const out = await masterBusPass(mastered, sampleRate, signal)
  onProgress?.(1)
  return out
}

/**
 * The app's master bus over finished channels, in a native OfflineAudioContext: native nodes only
 * (no worklet module in this context), so it renders on its own thread, fast. The export and the
 * remix render end with it.
 */
export function masterBusPass(channels: Float32Array[], sampleRate: number, signal?: AbortSignal): Promise<Float32Array[]> {
  return renderContext(
    channels[0]!.length,
    sampleRate,
    (ctx) => {
      const bus = masterBusInto(ctx)
      const src = ctx.createBufferSource()
      src.buffer = audioBufferFor(ctx, { id: 'master-bus-in', sampleRate, channels })
      src.connect(bus as never)
      src.start(0)
      return { tapFrom: bus, dispose: () => src.disconnect() }
    },
    undefined,
    signal,
    false,
  )
}

export async function exportMixWav(state: MixerState, options: RenderOptions & { format?: WavFormat }): Promise<Blob> {
  const channels = await renderMix(state, options)
  if (options.signal?.aborted) throw abortError()
  return encodeWav(channels, options.sampleRate, options.format ?? 'pcm16')
}
