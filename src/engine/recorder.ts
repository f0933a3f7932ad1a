/**
 * Microphone capture for the mixer: getUserMedia with raw constraints (no echo cancellation,
 * noise suppression or AGC: a recording should be what the microphone heard) → recorder worklet
 * → blocks of ~0.1 s → ChunkWriter → IndexedDB every ~1 s (crash-safe), plus a live input level.
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
import { ChunkWriter, latencyFrames, trimLatency, assembleChunks, type RecordingChunkStore, type RecordingSession } from './recorder-chunks.ts'
import { createRecorderTap, loadRecorderWorklet } from './recorder-worklet.ts'
import { errorMessage } from '../lib/error-message.ts'

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
export const RAW_AUDIO_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: { ideal: 2 } }

/** Chunks reach IndexedDB about once a second: a crash loses at most that much. */
export const FLUSH_SECONDS = 1

export function microphoneError(err: unknown): MicrophoneError {
  const name = (err as { name?: string } | null)?.name ?? ''
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return new MicrophoneError('denied', 'Microphone access was denied. Allow the microphone for this site in the browser settings and try again.')
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return new MicrophoneError('no-device', 'No microphone was found. Connect one and try again.')
  if (name === 'NotReadableError' || name === 'AbortError')
    return new MicrophoneError('busy', 'The microphone could not be started; another application may be using it.')
  return new MicrophoneError('unsupported', `The microphone could not be opened${err instanceof Error && err.message ? `: ${err.message}` : '.'}`)
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
}

interface BlockMessage {
  type: 'block' | 'flushed'
  startFrame?: number
  channels?: Float32Array[]
  peak?: number
  rms?: number
}

export async function startMicRecording(ctx: IAudioContext, options: StartOptions): Promise<MicRecording> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError('unsupported', 'This browser cannot record audio (no microphone access in this context).')
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
  const tap = createRecorderTap(ctx, { channels: channelCount, blockFrames })
  const trimFrames = latencyFrames(sampleRate, {
    baseLatency: ctx.baseLatency,
    outputLatency: (ctx as unknown as { outputLatency?: number }).outputLatency,
    inputLatency: settings.latency,
  })

  let writer: ChunkWriter | null = null
  let session: RecordingSession | null = null
  let resolveFlushed: (() => void) | null = null
  let resolveEnded: () => void = () => {}
  const ended = new Promise<void>((r) => (resolveEnded = r))
  track.addEventListener('ended', () => resolveEnded(), { once: true })

  tap.port.onmessage = (e: MessageEvent<BlockMessage>) => {
    const m = e.data
    if (m.type === 'flushed') {
      resolveFlushed?.()
      return
    }
    if (!m.channels || m.startFrame === undefined) return
    let channels = m.channels
    let startFrame = m.startFrame
    if (!writer && options.captureFrom !== undefined) {
      const from = Math.round(options.captureFrom * sampleRate)
      const frames = channels[0]?.length ?? 0
      if (startFrame + frames <= from) {
        options.onLevel?.(m.peak ?? 0, m.rms ?? 0)
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
    options.onLevel?.(m.peak ?? 0, m.rms ?? 0)
  }
  source.connect(tap)
  tap.connect(ctx.destination)

  let stopped = false
  return {
    session: () => session,
    ended,
    elapsed: () => (writer ? writer.frames / sampleRate : 0),
    async stop() {
      if (stopped) throw new Error('Recording already stopped')
      stopped = true
      const flushed = new Promise<void>((r) => (resolveFlushed = r))
      tap.port.postMessage('stop')
      // The worklet answers within a render quantum; the timeout covers a context that was suspended.
      await Promise.race([flushed, new Promise((r) => setTimeout(r, 500))])
      source.disconnect()
      tap.disconnect()
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
