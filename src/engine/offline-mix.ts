/**
 * Offline render of a mixer state through the very code the live mixer plays (buildMixGraph: one
 * channel-strip worklet per track, the master strip), then the app's master bus itself
 * (createMasterBus: limiter, clip guard) at unity volume, so an export equals what is heard
 * (minus the player's listening volume, which is not part of the mix).
 *
 *   renderMix(state, { sampleRate, onProgress?(0..1), signal?, parallel? }) → Promise<Float32Array[]>
 *     Stereo, length = the mix's length (where the last track ends) at `sampleRate`.
 *     parallel (default 1 = the live graph as is, in one context): > 1 splits the tracks into that
 *     many groups, renders each group's strips in its own context, sums the stems and runs the sum
 *     through the master strip and limiter in a last pass (differs from the single graph only by
 *     float summation order). Not the default because it buys nothing in Chromium: every
 *     OfflineAudioContext that has an AudioWorklet renders on the AudioWorklet's backing thread,
 *     and Blink shares ONE such thread among all offline worklet contexts of a renderer process
 *     (OfflineAudioWorkletThread's shared backing thread), so the stem contexts render one after
 *     the other, not side by side (measured: bench/browser/export.bench.ts "worklet-thread
 *     probe"; same-origin iframes are the same process, so they share it too). The split only
 *     adds the stem sum and the master pass (~5 % CPU) and two extra stems of memory. A sandboxed
 *     iframe (opaque origin) does get its own process and worklet thread in Chromium 156 (same
 *     probe): the route to a real split, not built (the frame would need the strip code without
 *     same-origin module loading, and the track audio copied across processes).
 *     Aborting rejects at once with an AbortError (the browser cannot stop an offline render
 *     mid-way; an abandoned render finishes in the background and is discarded).
 *   exportMixWav(state, options) → Promise<Blob>   16-bit PCM WAV encoded in the WAV worker
 */
import { OfflineAudioContext, type IAudioNode, type IOfflineAudioContext } from 'standardized-audio-context'
import { createMasterBus } from './master-bus.ts'
import { buildMixGraph, createMasterStrip, prepareMixContext } from './mixer-graph.ts'
import { audioBufferFor, type AnyAudioContext } from './mixer-audio.ts'
import { mixDuration, type MixerState, type MixerTrack } from './mixer-model.ts'
import { createRecorderTap, loadRecorderWorklet } from './recorder-worklet.ts'
import { encodeWav } from './workers.ts'

export interface RenderOptions {
  sampleRate: number
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /** Contexts to split the tracks over (default 1 = the single live-identical graph; see above). */
  parallel?: number
}

export class EmptyMixError extends Error {
  constructor() {
    super('Nothing to render: add a track first.')
    this.name = 'EmptyMixError'
  }
}

function abortError(): DOMException {
  return new DOMException('Export cancelled', 'AbortError')
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
): Promise<Float32Array[]> {
  if (signal?.aborted) throw abortError()
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate })
  await Promise.all([prepareMixContext(ctx), onProgress ? loadRecorderWorklet(ctx) : Promise.resolve()])
  const { tapFrom, dispose } = build(ctx)
  if (onProgress) {
    const tap = createRecorderTap(ctx, { capture: false, blockFrames: Math.max(4096, Math.floor(length / 100)) })
    tap.port.onmessage = (e: MessageEvent<{ type: string; frame?: number }>) => {
      // An abandoned render keeps running in the background; its ticks must not revive the bar.
      if (signal?.aborted) return
      if (e.data.type === 'tick' && e.data.frame !== undefined) onProgress(Math.min(1, e.data.frame / length))
    }
    tapFrom.connect(tap as never)
    tap.connect(ctx.destination)
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
    dispose()
  }
}

function splitTracks(tracks: readonly MixerTrack[], groups: number): MixerTrack[][] {
  // Round-robin keeps long and short tracks spread over the groups.
  const out: MixerTrack[][] = Array.from({ length: groups }, () => [])
  tracks.forEach((t, i) => out[i % groups]!.push(t))
  return out.filter((g) => g.length > 0)
}

export async function renderMix(state: MixerState, options: RenderOptions): Promise<Float32Array[]> {
  const { sampleRate, onProgress, signal } = options
  // Round, not ceil: a track of N frames has duration N/rate, whose float product may land a hair above N.
  const length = Math.round(mixDuration(state) * sampleRate)
  if (length <= 0) throw new EmptyMixError()
  const parallel = Math.max(1, Math.floor(options.parallel ?? 1))

  if (parallel === 1 || state.tracks.length < 2) {
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

  // Stems in separate contexts (in Chromium they still share one render thread), then the master pass.
  const groups = splitTracks(state.tracks, parallel)
  const progress = groups.map(() => 0)
  const report = () => onProgress?.((0.9 * progress.reduce((a, b) => a + b, 0)) / groups.length)
  const stems = await Promise.all(
    groups.map((tracks, g) =>
      renderContext(
        length,
        sampleRate,
        (ctx) => {
          const bus = ctx.createGain()
          bus.connect(ctx.destination)
          const graph = buildMixGraph(ctx, { tracks, master: state.master }, { destination: bus as never, master: false })
          graph.start(0, 0)
          return { tapFrom: bus as never, dispose: () => graph.dispose() }
        },
        onProgress
          ? (f) => {
              progress[g] = f
              report()
            }
          : undefined,
        signal,
      ),
    ),
  )
  const sum = [new Float32Array(length), new Float32Array(length)]
  for (const stem of stems)
    for (let c = 0; c < 2; c++) {
      const dst = sum[c]!
      const src = stem[c]!
      for (let i = 0; i < length; i++) dst[i] = dst[i]! + src[i]!
    }
  const out = await renderContext(
    length,
    sampleRate,
    (ctx) => {
      const bus = masterBusInto(ctx)
      const master = createMasterStrip(ctx, state.master, bus)
      const src = ctx.createBufferSource()
      src.buffer = audioBufferFor(ctx, { id: 'master-sum', sampleRate, channels: sum })
      src.connect(master.node as never)
      src.start(0)
      return { tapFrom: bus, dispose: () => master.dispose() }
    },
    onProgress ? (f) => onProgress(0.9 + 0.1 * f) : undefined,
    signal,
  )
  onProgress?.(1)
  return out
}

export async function exportMixWav(state: MixerState, options: RenderOptions): Promise<Blob> {
  const channels = await renderMix(state, options)
  if (options.signal?.aborted) throw abortError()
  return encodeWav(channels, options.sampleRate, 'pcm16')
}
