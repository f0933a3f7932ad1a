/**
 * Microphone capture for the mixer: getUserMedia with raw constraints (no echo cancellation,
 * noise suppression or AGC: a recording should be what the microphone heard) → recorder worklet
 * → blocks of ~0.1 s (through a SharedArrayBuffer ring, recorder-worklet.ts) → ChunkWriter →
 * IndexedDB every ~1 s (crash-safe), plus a live input level read from the same blocks.
 *
 *   startMicRecording(ctx, { store, onLevel?, timelinePositionAt? }) → Promise<MicRecording>
 *     rejects MicrophoneError('denied' | 'no-device' | 'unsupported' | 'busy') with a user message
 *   MicRecording.elapsed()   seconds captured
 *   MicRecording.stop()      → { channels, sampleRate, timelineOffset } aligned with playback:
 *                            the first baseLatency + outputLatency (+ input latency when the
 *                            track reports one) frames are dropped, and timelineOffset is the
 *                            timeline position that was heard when capture began
 *   MicRecording.ended       resolves if the device goes away mid-take (caller should stop())
 *   recoverSession(store, session) → channels of an interrupted take (latency-trimmed)
 */
import type { IAudioContext } from 'standardized-audio-context'
import {
  ChunkWriter,
  latencyFrames,
  trimLatency,
  assembleChunks,
  type RecordingChunkStore,
  type RecordingSession,
} from './recorder-chunks.ts'
import { createCaptureTap, loadRecorderWorklet, type RecorderTransport } from './recorder-worklet.ts'
import { errorMessage } from '../lib/error-message.ts'
import { deviceOutputLatency } from './output-latency.ts'

export type MicrophoneErrorKind = 'denied' | 'no-device' | 'unsupported' | 'busy'

export class MicrophoneError extends Error {
  constructor(
    readonly kind: MicrophoneErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'MicrophoneError'
  }
}

// Stereo when the device has it (an audio interface, a stereo microphone); echo cancellation
// would force mono, and it is off anyway.
export const RAW_AUDIO_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
  channelCount: { ideal: 2 },
}

/** Chunks reach IndexedDB about once a second: a crash loses at most that much. */
export const FLUSH_SECONDS = 1

export function microphoneError(err: unknown): MicrophoneError {
  const name = (err as { name?: string } | null)?.name ?? ''
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return new MicrophoneError(
      'denied',
      'Microphone access was denied. Allow the microphone for this site in the browser settings and try again.',
    )
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return new MicrophoneError('no-device', 'No microphone was found. Connect one and try again.')
  if (name === 'NotReadableError' || name === 'AbortError')
    return new MicrophoneError('busy', 'The microphone could not be started; another application may be using it.')
  return new MicrophoneError(
    'unsupported',
    `The microphone could not be opened${err instanceof Error && err.message ? `: ${err.message}` : '.'}`,
  )
}

export interface TakeResult {
  channels: Float32Array[]
  sampleRate: number
  timelineOffset: number
}

export interface MicRecording {
  readonly session: () => RecordingSession | null
  elapsed(): number
  stop(): Promise<TakeResult>
  ended: Promise<void>
}

export interface StartOptions {
  store: RecordingChunkStore
  onLevel?: (peak: number, rms: number) => void
  /** Timeline position heard at a context time, or null when the mixer is not playing. */
  timelinePositionAt?: (contextTime: number) => number | null
  /**
   * Context time before which captured audio is dropped: a count-in opens the microphone during
   * its bar and the take begins exactly on the downbeat, however long the device took to open.
   */
  captureFrom?: number
  newId?: () => string
  /** Tests force the fallback ('messages'); by default the ring whenever the page has SharedArrayBuffer. */
  transport?: RecorderTransport
}

/** The input meter's reading of one block: peak and RMS of its first channel. */
function blockLevels(samples: Float32Array): { peak: number; rms: number } {
  let peak = 0
  let sum = 0
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i]!
    const a = v < 0 ? -v : v
    if (a > peak) peak = a
    sum += v * v
  }
  return { peak, rms: samples.length > 0 ? Math.sqrt(sum / samples.length) : 0 }
}

export async function startMicRecording(ctx: IAudioContext, options: StartOptions): Promise<MicRecording> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new MicrophoneError('unsupported', 'This browser cannot record audio (no microphone access in this context).')
  let stream: MediaStream
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: RAW_AUDIO_CONSTRAINTS })
  } catch (err) {
    throw microphoneError(err)
  }
  const track = stream.getAudioTracks()[0]
  if (!track) {
    stream.getTracks().forEach((t) => t.stop())
    throw new MicrophoneError('no-device', 'No microphone was found. Connect one and try again.')
  }
  try {
    await loadRecorderWorklet(ctx)
  } catch (err) {
    stream.getTracks().forEach((t) => t.stop())
    throw new MicrophoneError('unsupported', `The recorder could not start: ${errorMessage(err)}`)
  }

  const sampleRate = ctx.sampleRate
  const source = ctx.createMediaStreamSource(stream)
  // ~0.1 s blocks keep the input meter lively; the writer batches them into ~1 s chunks.
  const blockFrames = Math.round((sampleRate * 0.1) / 128) * 128
  const settings = track.getSettings() as MediaTrackSettings & { latency?: number }
  // As many channels as the device delivers (1 or 2), so a stereo source stays stereo.
  const channelCount = (settings.channelCount ?? 1) >= 2 ? 2 : 1
  const trimFrames = latencyFrames(sampleRate, {
    baseLatency: ctx.baseLatency,
    outputLatency: deviceOutputLatency(ctx),
    inputLatency: settings.latency,
  })

  let writer: ChunkWriter | null = null
  let session: RecordingSession | null = null
  let resolveEnded: () => void = () => {}
  const ended = new Promise<void>((r) => (resolveEnded = r))
  track.addEventListener('ended', () => resolveEnded(), { once: true })

  // Each block is copied before onBlock returns (slice or ChunkWriter.push): the ring reuses it.
  const onBlock = (block: Float32Array[], blockStart: number) => {
    let channels = block
    let startFrame = blockStart
    const level = () => {
      if (!options.onLevel) return
      const { peak, rms } = blockLevels(block[0]!)
      options.onLevel(peak, rms)
    }
    if (!writer && options.captureFrom !== undefined) {
      const from = Math.round(options.captureFrom * sampleRate)
      const frames = channels[0]?.length ?? 0
      if (startFrame + frames <= from) {
        level()
        return
      }
      if (startFrame < from) {
        channels = channels.map((c) => c.slice(from - startFrame))
        startFrame = from
      }
    }
    if (!writer) {
      const startTime = startFrame / sampleRate
      session = {
        id: options.newId?.() ?? crypto.randomUUID(),
        startedAt: Date.now(),
        sampleRate,
        channelCount,
        trimFrames,
        timelineOffset: Math.max(0, options.timelinePositionAt?.(startTime) ?? 0),
      }
      const began = options.store.begin(session)
      const store: RecordingChunkStore = { ...options.store, append: (c) => began.then(() => options.store.append(c)) }
      writer = new ChunkWriter(store, session, Math.round(sampleRate * FLUSH_SECONDS))
    }
    writer.push(channels)
    level()
  }
  const tap = createCaptureTap(ctx, { channels: channelCount, blockFrames, onBlock, transport: options.transport })
  source.connect(tap.node)
  tap.node.connect(ctx.destination)

  let stopped = false
  return {
    session: () => session,
    ended,
    elapsed: () => (writer ? writer.frames / sampleRate : 0),
    async stop() {
      if (stopped) throw new Error('Recording already stopped')
      stopped = true
      await tap.stop()
      source.disconnect()
      tap.node.disconnect()
      stream.getTracks().forEach((t) => t.stop())
      if (!writer || !session) return { channels: [new Float32Array(0)], sampleRate, timelineOffset: 0 }
      const w = writer as ChunkWriter
      const s = session as RecordingSession
      try {
        await w.flush()
      } catch {
        // The take is complete in memory; only its crash copy failed, which no longer matters.
      }
      const channels = trimLatency(w.takeAll(), s.trimFrames)
      return { channels, sampleRate, timelineOffset: s.timelineOffset }
    },
  }
}

export async function recoverSession(store: RecordingChunkStore, session: RecordingSession): Promise<Float32Array[]> {
  const chunks = await store.chunks(session.id)
  return trimLatency(assembleChunks(chunks, session.channelCount), session.trimFrames)
}
