/**
 * One remix source, from picking to prepared audio: decoded natively (off the main thread), checked
 * (length, silence), analysed and prepared in the remix worker (workers/remix.worker.ts), with the
 * three Sound Library loops decoded once. No React; the feature drives it.
 *
 *   const session = new RemixSession(sampleRate)
 *   await session.load(source)            → RemixAnalysis; bad input rejects with RemixInputError (a
 *                                           message to show as is; nothing is burned)
 *   await session.prepare(targetBpm, onProgress)  → PreparedRemix (a new one per target tempo)
 *   session.dispose()                     terminates the worker
 */
import { proxy, transfer, wrap, type Remote } from 'comlink'
import type { RemixWorkerApi } from '../../../workers/remix.worker.ts'
import type { RemixAnalysis } from '../../../workers/remix-analysis.ts'
import { MAX_SECONDS, MIN_SECONDS } from '../../../workers/remix-analysis.ts'
import type { LoopSource, PreparedRemix } from '../../../workers/remix-prepare.ts'
import { resolveAudioUrl } from '../../lib/user-audio-store.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { REMIX_LAYERS, loopFor, type RemixLayer } from './remix-settings.ts'

export type { RemixAnalysis, PreparedRemix }

export class RemixInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RemixInputError'
  }
}

export type RemixSourceInput = { audioUrl: string } | { file: Blob }

/** Messages the analysis worker throws for bad input, shown as they are. */
const INPUT_PROBLEM = /too short|too long|silent|nothing to remix/i

async function fetchBytes(input: RemixSourceInput): Promise<ArrayBuffer> {
  if ('file' in input) return input.file.arrayBuffer()
  const resolved = await resolveAudioUrl(input.audioUrl)
  try {
    const res = await fetch(resolved.url)
    if (!res.ok) throw new RemixInputError(`This track could not be loaded (HTTP ${res.status})`)
    return await res.arrayBuffer()
  } finally {
    resolved.release()
  }
}

async function decode(bytes: ArrayBuffer, sampleRate: number): Promise<AudioBuffer> {
  try {
    // A native offline context decodes on the browser's decoder thread and resamples to our rate.
    return await new OfflineAudioContext(1, 1, sampleRate).decodeAudioData(bytes)
  } catch {
    throw new RemixInputError('This file could not be decoded: pick an MP3, WAV, OGG, WebM or M4A audio file')
  }
}

function channelsOf(buffer: AudioBuffer): Float32Array[] {
  const n = Math.min(2, buffer.numberOfChannels)
  return Array.from({ length: n }, (_, c) => buffer.getChannelData(c).slice())
}

export class RemixSession {
  private readonly raw: Worker
  private readonly api: Remote<RemixWorkerApi>
  private loops: Promise<Partial<Record<RemixLayer, LoopSource>>> | null = null
  private loopsFor = 0
  analysis: RemixAnalysis | null = null
  /** Seconds of the source as decoded. */
  duration = 0

  constructor(readonly sampleRate: number) {
    this.raw = new Worker(new URL('../../../workers/remix.worker.ts', import.meta.url), { type: 'module', name: 'remix' })
    this.api = wrap<RemixWorkerApi>(this.raw)
  }

  async load(input: RemixSourceInput): Promise<RemixAnalysis> {
    let bytes: ArrayBuffer
    try {
      bytes = await fetchBytes(input)
    } catch (err) {
      throw err instanceof RemixInputError ? err : new RemixInputError(`This track could not be loaded: ${errorMessage(err)}`)
    }
    if (bytes.byteLength === 0) throw new RemixInputError('This file is empty: there is nothing to remix')
    const buffer = await decode(bytes, this.sampleRate)
    // Checked before anything big is copied: a 20-minute file never reaches the worker.
    if (buffer.duration > MAX_SECONDS)
      throw new RemixInputError(
        `This track is too long to remix (${Math.round(buffer.duration / 60)} min; at most ${MAX_SECONDS / 60} min)`,
      )
    if (buffer.duration < MIN_SECONDS)
      throw new RemixInputError(`This track is too short to remix (${buffer.duration.toFixed(1)} s; at least ${MIN_SECONDS} s)`)
    const channels = channelsOf(buffer)
    try {
      this.analysis = await this.api.load(
        transfer(
          channels,
          channels.map((c) => c.buffer as ArrayBuffer),
        ),
        this.sampleRate,
      )
    } catch (err) {
      const message = errorMessage(err)
      throw INPUT_PROBLEM.test(message) ? new RemixInputError(message) : err
    }
    this.duration = buffer.duration
    return this.analysis
  }

  /** The three layers' loops, chosen for the output tempo, decoded at the session's rate. */
  private async loopSources(bpm: number): Promise<Partial<Record<RemixLayer, LoopSource>>> {
    const key = Math.round(bpm)
    if (!this.loops || this.loopsFor !== key) {
      this.loopsFor = key
      this.loops = Promise.all(
        REMIX_LAYERS.map(async (layer) => {
          const sound = loopFor(layer, bpm)
          const res = await fetch(sound.url)
          if (!res.ok) throw new Error(`The ${sound.name} sample could not be loaded (HTTP ${res.status})`)
          const buffer = await decode(await res.arrayBuffer(), this.sampleRate)
          const pcm = new Float32Array(buffer.length)
          for (let c = 0; c < buffer.numberOfChannels; c++) {
            const ch = buffer.getChannelData(c)
            for (let i = 0; i < pcm.length; i++) pcm[i]! += ch[i]! / buffer.numberOfChannels
          }
          return [layer, { pcm, bpm: sound.bpm! }] as const
        }),
      ).then((entries) => Object.fromEntries(entries))
      this.loops.catch(() => (this.loops = null))
    }
    return this.loops
  }

  async prepare(targetBpm: number, onProgress?: (fraction: number) => void): Promise<PreparedRemix> {
    const analysis = this.analysis
    if (!analysis) throw new Error('Pick a source first')
    const loops = await this.loopSources(targetBpm)
    return this.api.prepare(
      { sampleRate: this.sampleRate, bpm: analysis.bpm, firstBeat: analysis.firstBeat, targetBpm, loops },
      onProgress ? proxy(onProgress) : undefined,
    )
  }

  dispose(): void {
    this.raw.terminate()
  }
}
