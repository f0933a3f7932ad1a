/**
 * The remix render: the preview's graph (remix voice → channel strip → master bus), offline.
 *
 *   renderRemixAudio(prepared, controls, { engine?, onProgress?, signal? }) → Promise<Float32Array[]>
 *     engine 'workers' (default): the voice and the strip run quantum by quantum in a worker
 *       (workers/remix-render.ts, the processors' own code), then the app's master bus in a native
 *       OfflineAudioContext, as the studio export does; cancel terminates the worker at once.
 *     engine 'graph': the live preview graph in one OfflineAudioContext: the reference the render
 *       is tested against (tests/browser/remix-render.test.ts: difference below -90 dBFS).
 *   remixLength(prepared): frames rendered = the source plus REMIX_TAIL_SECONDS of effect tail.
 */
import { proxy, wrap } from 'comlink'
import { OfflineAudioContext } from 'standardized-audio-context'
import type { RemixRenderWorkerApi } from '../../../workers/remix-render.worker.ts'
import type { PreparedRemix } from '../../../workers/remix-prepare.ts'
import { createChannelStrip, loadChannelStrip, type StripParams } from '../channel-strip.ts'
import { createMasterBus } from '../master-bus.ts'
import { masterBusPass } from '../offline-mix.ts'
import { createRemixVoice, loadRemixVoice, type RemixVoiceControls } from './remix-voice-node.ts'
import { loadStripModule } from '../strip-wasm.ts'

export const REMIX_TAIL_SECONDS = 2

export interface RemixControls {
  voice: RemixVoiceControls
  strip: StripParams
}

export interface RemixRenderOptions {
  engine?: 'workers' | 'graph'
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

const abortError = () => new DOMException('Render cancelled', 'AbortError')

export function remixLength(prepared: PreparedRemix): number {
  return prepared.source[0]!.length + Math.round(REMIX_TAIL_SECONDS * prepared.sampleRate)
}

async function renderGraph(prepared: PreparedRemix, controls: RemixControls, signal?: AbortSignal): Promise<Float32Array[]> {
  const length = remixLength(prepared)
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate: prepared.sampleRate })
  await Promise.all([loadRemixVoice(ctx), loadChannelStrip(ctx)])
  if (signal?.aborted) throw abortError()
  const bus = createMasterBus(ctx)
  const voice = createRemixVoice(ctx, { source: prepared.source, layers: prepared.layers, playing: true, position: 0 }, controls.voice)
  const strip = createChannelStrip(ctx, controls.strip)
  voice.node.connect(strip.node as never)
  strip.node.connect(bus.input as never)
  const rendered = await ctx.startRendering()
  voice.dispose()
  strip.dispose()
  return [rendered.getChannelData(0), rendered.getChannelData(1)]
}

async function renderInWorker(prepared: PreparedRemix, controls: RemixControls, options: RemixRenderOptions): Promise<Float32Array[]> {
  const { signal, onProgress } = options
  if (signal?.aborted) throw abortError()
  const worker = new Worker(new URL('../../../workers/remix-render.worker.ts', import.meta.url), { type: 'module', name: 'remix-render' })
  const api = wrap<RemixRenderWorkerApi>(worker)
  const length = remixLength(prepared)
  const STRIPS_SHARE = 0.95
  try {
    const stripModule = await loadStripModule()
    const premaster = await new Promise<Float32Array[]>((resolve, reject) => {
      const onAbort = () => reject(abortError())
      signal?.addEventListener('abort', onAbort, { once: true })
      api
        .render(
          {
            sampleRate: prepared.sampleRate,
            length,
            voice: { source: prepared.source, layers: prepared.layers },
            voiceControls: controls.voice,
            stripControls: controls.strip,
            stripModule,
          },
          onProgress ? proxy((f: number) => !signal?.aborted && onProgress(STRIPS_SHARE * f)) : undefined,
        )
        .then(resolve, reject)
        .finally(() => signal?.removeEventListener('abort', onAbort))
    })
    const out = await masterBusPass(premaster, prepared.sampleRate, signal)
    onProgress?.(1)
    return out
  } finally {
    worker.terminate()
  }
}

export function renderRemixAudio(
  prepared: PreparedRemix,
  controls: RemixControls,
  options: RemixRenderOptions = {},
): Promise<Float32Array[]> {
  const engine = options.engine ?? (typeof Worker === 'undefined' ? 'graph' : 'workers')
  return engine === 'graph' ? renderGraph(prepared, controls, options.signal) : renderInWorker(prepared, controls, options)
}
