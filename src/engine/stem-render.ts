/**
 * Renders mixer tracks through their channel strips in a pool of workers (workers/stem-render.ts)
 * and returns the summed stems: the export's track stage, using every core. What a worker's strip
 * receives is exactly what the track's AudioBufferSourceNode feeds the worklet in the live graph:
 *
 *   - audio at the render rate, 1 or 2 channels, starting on a whole frame: handed over as is
 *     (mono is duplicated in the worker, as the worklet's input up-mix does);
 *   - anything else (another sample rate, more channels, a start between two frames): the source
 *     is first played alone through a native OfflineAudioContext, into a node with the worklet's
 *     input configuration (2 channels, explicit, speakers), so the browser's own resampler,
 *     sub-sample start and down-mix produce the input. Native-only contexts render on their own
 *     thread and fast; the strips' work stays in the workers;
 *   - an arranged track (clips): its clips are played the same way, by the live graph's own
 *     scheduler (src/engine/arrangement/schedule-clips.ts).
 *
 *   renderStemsInWorkers(tracks, { length, sampleRate, onProgress?(0..1), signal?, workers? })
 *     → Promise<[left, right]>   `length` frames; tracks that cannot sound (disabled, volume 0,
 *     audio missing) are skipped: their strips output exact zeros in the live graph too.
 *     Aborting terminates the workers at once and rejects with an AbortError.
 *   renderEachTrackInWorkers(tracks, same options) → Promise<{ track, channels }[]>   the same
 *     tracks one by one (a stem export), in track order.
 */
import { transfer, wrap, proxy, type Remote } from 'comlink'
import { OfflineAudioContext, type IGainNode, type IOfflineAudioContext } from 'standardized-audio-context'
import type { StemRenderWorkerApi } from '../../workers/stem-render.worker.ts'
import type { StemTrackJob } from '../../workers/stem-render.ts'
import { resolveStripParams } from './channel-strip.ts'
import { masterStripParams, trackStripParams } from './mixer-graph.ts'
import { audioBufferFor, getMixerAudio, type MixerAudio } from './mixer-audio.ts'
import type { MasterSettings, MixerTrack } from './mixer-model.ts'
import { scheduleClips } from './arrangement/schedule-clips.ts'
import { planClips } from './arrangement/clip-plan.ts'
import { clipPlaysExact } from '../../workers/clip-render.ts'
import { loadStripModule } from './strip-wasm.ts'

export interface StemRenderOptions {
  length: number
  sampleRate: number
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /** Worker count (default: the device's cores, at most 4, at most one per track). */
  workers?: number
}

const MAX_WORKERS = 4

/** What every export path rejects with when cancelled. */
export function abortError(): DOMException {
  return new DOMException('Export cancelled', 'AbortError')
}

/** Where the track's source starts, in frames, when that is a whole frame (else null). */
function wholeStartFrame(offset: number, sampleRate: number): number | null {
  const f = offset * sampleRate
  const n = Math.round(f)
  return Math.abs(f - n) < 1e-6 ? n : null
}

/**
 * What `play` feeds a node with the worklet's input configuration (2 channels, explicit,
 * speakers), rendered by the browser itself in a native offline context.
 */
async function asHeard(
  length: number,
  sampleRate: number,
  play: (ctx: IOfflineAudioContext, input: IGainNode<IOfflineAudioContext>) => void,
): Promise<Float32Array[]> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length, sampleRate })
  const input = ctx.createGain()
  input.channelCount = 2
  input.channelCountMode = 'explicit'
  input.channelInterpretation = 'speakers'
  input.connect(ctx.destination)
  play(ctx, input)
  const out = await ctx.startRendering()
  return [out.getChannelData(0).slice(), out.getChannelData(1).slice()]
}

/** The source played alone, as buildMixGraph starts it for a render from the top. */
const sourceAsHeard = (audio: MixerAudio, offset: number, length: number, sampleRate: number) =>
  asHeard(length, sampleRate, (ctx, input) => {
    const src = ctx.createBufferSource()
    src.buffer = audioBufferFor(ctx, audio)
    src.connect(input)
    src.start(offset, 0)
  })

/** An arranged track's clips, played with the live graph's own scheduling. */
const clipsAsHeard = (track: MixerTrack, audio: MixerAudio, length: number, sampleRate: number) =>
  asHeard(length, sampleRate, (ctx, input) => scheduleClips(ctx, audioBufferFor(ctx, audio), track.clips ?? [], input, 0, 0))

async function jobFor(track: MixerTrack, audio: MixerAudio, length: number, sampleRate: number): Promise<StemTrackJob> {
  const controls = resolveStripParams(trackStripParams(track))
  if (track.clips) {
    // Whole-frame clips at the render rate: the worker composes them from the same plan (far
    // cheaper than a native render of the whole timeline); anything else the browser renders.
    const frames = audio.channels[0]?.length ?? 0
    const plays = planClips(track.clips, frames / audio.sampleRate, 0, 0, sampleRate)
    if (audio.sampleRate === sampleRate && audio.channels.length <= 2 && clipPlaysExact(plays, frames, sampleRate))
      return { controls, channels: audio.channels.map((c) => c.slice()), startFrame: 0, plays }
    return { controls, channels: await clipsAsHeard(track, audio, length, sampleRate), startFrame: 0 }
  }
  const start = wholeStartFrame(track.offset, sampleRate)
  if (audio.sampleRate === sampleRate && audio.channels.length <= 2 && start !== null) {
    // Copies: the registry's arrays keep feeding the live mixer while the worker owns these.
    return { controls, channels: audio.channels.map((c) => c.slice()), startFrame: start }
  }
  return { controls, channels: await sourceAsHeard(audio, track.offset, length, sampleRate), startFrame: 0 }
}

function audible(track: MixerTrack): boolean {
  return track.enabled && track.volume > 0
}

function spawn(index: number): Worker {
  return new Worker(new URL('../../workers/stem-render.worker.ts', import.meta.url), { type: 'module', name: `stem-render-${index + 1}` })
}

/** Rejects when the worker cannot start or throws outside a call (a call's own error rejects that call). */
function crashOf(worker: Worker): Promise<never> {
  return new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => reject(new Error(`The export worker stopped: ${e.message || 'could not start'}`)), {
      once: true,
    })
  })
}

function abortOf(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_, reject) => {
    signal?.addEventListener('abort', () => reject(abortError()), { once: true })
  })
}

export async function renderStemsInWorkers(tracks: readonly MixerTrack[], options: StemRenderOptions): Promise<Float32Array[]> {
  const { length } = options
  const stems = await renderInPool(tracks, options, 'summed')
  if (stems.length === 0) return [new Float32Array(length), new Float32Array(length)]
  // Each worker's stem is already the sum of its tracks; add the others into the first.
  const sum = stems[0]!.channels
  for (const stem of stems.slice(1))
    for (let c = 0; c < 2; c++) {
      const dst = sum[c]!
      const src = stem.channels[c]!
      for (let i = 0; i < length; i++) dst[i] = dst[i]! + src[i]!
    }
  return sum
}

/** One track's stem: the track through its own channel strip, alone, `length` frames. */
export interface TrackStem {
  track: MixerTrack
  channels: Float32Array[]
}

/**
 * Each track that can sound through its own channel strip, alone (the stems of a stem export), in
 * the mixer's track order. They add up to renderStemsInWorkers' sum of the same tracks.
 */
export async function renderEachTrackInWorkers(tracks: readonly MixerTrack[], options: StemRenderOptions): Promise<TrackStem[]> {
  const stems = await renderInPool(tracks, options, 'each')
  return stems.sort((a, b) => a.index - b.index).map(({ track, channels }) => ({ track, channels }))
}

/**
 * The worker pool both renders share: each worker takes tracks from one queue and runs them through
 * their strips; 'summed' keeps one running sum per worker, 'each' finishes every track on its own.
 */
async function renderInPool(
  tracks: readonly MixerTrack[],
  options: StemRenderOptions,
  mode: 'summed' | 'each',
): Promise<(TrackStem & { index: number })[]> {
  const { length, sampleRate, onProgress, signal } = options
  if (signal?.aborted) throw abortError()
  const queue = tracks.flatMap((t) => {
    const audio = audible(t) ? getMixerAudio(t.audioId) : undefined
    return audio && audio.channels.length > 0 ? [{ track: t, audio }] : []
  })
  if (queue.length === 0) {
    onProgress?.(1)
    return []
  }
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2
  const count = Math.max(1, Math.min(options.workers ?? Math.min(cores, MAX_WORKERS), queue.length))
  const threads: Worker[] = []
  const done = new Array<number>(queue.length).fill(0)
  const report = () => onProgress?.(done.reduce((a, b) => a + b, 0) / (queue.length * length))

  const stripModule = await loadStripModule()
  let next = 0
  let failed: unknown = null
  const run = async (remote: Remote<StemRenderWorkerApi>): Promise<(TrackStem & { index: number })[]> => {
    const out: (TrackStem & { index: number })[] = []
    let first = -1
    if (mode === 'summed') await remote.begin(length, sampleRate, stripModule)
    while (next < queue.length && failed === null) {
      const index = next++
      const { track, audio } = queue[index]!
      const job = await jobFor(track, audio, length, sampleRate)
      if (signal?.aborted || failed !== null) break
      if (mode === 'each') await remote.begin(length, sampleRate, stripModule)
      else if (first < 0) first = index
      await remote.addTrack(
        transfer(job, buffersOf(job.channels)),
        onProgress
          ? proxy((frames: number) => {
              done[index] = frames
              report()
            })
          : undefined,
      )
      if (mode === 'each') out.push({ index, track, channels: await remote.finish() })
    }
    if (mode === 'summed' && first >= 0) out.push({ index: first, track: queue[first]!.track, channels: await remote.finish() })
    return out
  }

  try {
    const work = Array.from({ length: count }, (_, i) => {
      const worker = spawn(i)
      threads.push(worker)
      return Promise.race([run(wrap<StemRenderWorkerApi>(worker)), crashOf(worker)]).catch((err: unknown) => {
        failed ??= err
        throw err
      })
    })
    return (await Promise.race([Promise.all(work), abortOf(signal)])).flat()
  } finally {
    for (const w of threads) w.terminate()
  }
}

/**
 * The master strip (master volume and reverb) over the summed stems, in a worker, exactly as the
 * master strip's worklet would run it. Takes ownership of `sum` (its buffers are transferred).
 */
export async function renderMasterStripInWorker(
  sum: Float32Array[],
  master: MasterSettings,
  sampleRate: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  if (signal?.aborted) throw abortError()
  const stripModule = await loadStripModule()
  const worker = spawn(0)
  try {
    const remote = wrap<StemRenderWorkerApi>(worker)
    const work = (async () => {
      await remote.begin(sum[0]!.length, sampleRate, stripModule)
      const job: StemTrackJob = { controls: resolveStripParams(masterStripParams(master)), channels: sum, startFrame: 0 }
      await remote.addTrack(transfer(job, buffersOf(sum)))
      return remote.finish()
    })()
    return await Promise.race([work, crashOf(worker), abortOf(signal)])
  } finally {
    worker.terminate()
  }
}

function buffersOf(channels: Float32Array[]): ArrayBuffer[] {
  return [...new Set(channels.map((c) => c.buffer as ArrayBuffer))]
}
