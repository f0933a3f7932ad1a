import { useCallback, useEffect, useRef, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { unlockAudio } from '../../../engine/audio-context.ts'
import { putMixerAudio } from '../../../engine/mixer-audio.ts'
import { encodeWav } from '../../../engine/workers.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { MicrophoneError, startMicRecording, type MicRecording } from '../../../engine/recorder.ts'
import { idbChunkStore } from '../../../engine/project-db.ts'
import { offerToLibrary } from '../offer-to-library.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'

export type RecorderPhase = 'idle' | 'starting' | 'recording' | 'stopping'

/**
 * Record Microphone: idle → starting → recording (elapsed, live input level) → stopping → idle,
 * adding a 'Recording N' track. Leaving the page mid-take keeps its chunks in IndexedDB, where the
 * next visit offers them for recovery.
 */
export function useMicRecorder(onInputLevel: (peak: number, rms: number) => void) {
  const [phase, setPhase] = useState<RecorderPhase>('idle')
  const [elapsed, setElapsed] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const recording = useRef<MicRecording | null>(null)
  const levelCb = useRef(onInputLevel)
  useEffect(() => {
    levelCb.current = onInputLevel
  }, [onInputLevel])

  useEffect(() => {
    if (phase !== 'recording') return
    const id = setInterval(() => setElapsed(recording.current?.elapsed() ?? 0), 200)
    return () => clearInterval(id)
  }, [phase])

  // Unmounting mid-take stops capture but leaves the session in IndexedDB for recovery.
  useEffect(
    () => () => {
      const r = recording.current
      recording.current = null
      if (r) void r.stop().catch(() => {})
    },
    [],
  )

  const stop = useCallback(async () => {
    const r = recording.current
    if (!r) return
    recording.current = null
    setPhase('stopping')
    try {
      const take = await r.stop()
      const frames = take.channels[0]?.length ?? 0
      if (frames === 0) {
        notify.error('Recording empty', { description: 'No audio was captured from the microphone.' })
      } else {
        const audioId = `rec-${crypto.randomUUID()}`
        putMixerAudio({ id: audioId, sampleRate: take.sampleRate, channels: take.channels })
        useMixerStore.getState().addRecording({ audioId, duration: frames / take.sampleRate, offset: take.timelineOffset })
        // The take is in the mixer; the Library gets it when the user says so (or always, by their setting).
        const label = `Microphone take ${new Date().toLocaleString()}`
        void encodeWav(take.channels, take.sampleRate, 'pcm16')
          .then((blob) =>
            offerToLibrary(
              { idPrefix: 'take', title: label, artist: 'Recorded by you', blob, seconds: frames / take.sampleRate, origin: 'recording' },
              'Recording saved',
              'Added to the mixer as a recording track',
            ),
          )
          .catch((err: unknown) => console.warn('[recording] could not be encoded for the Library', err))
      }
      const session = r.session()
      if (session) await idbChunkStore.remove(session.id).catch(() => {})
    } catch (err) {
      notify.error('Recording failed', { description: errorMessage(err) })
    } finally {
      setPhase('idle')
      setElapsed(0)
      levelCb.current(0, 0)
    }
  }, [])

  /** Resolves true once capturing; `captureFrom`: drop audio before this context time (a count-in). */
  const start = useCallback(
    async (captureFrom?: number): Promise<boolean> => {
      if (recording.current) return false
      setError(null)
      setPhase('starting')
      try {
        const ctx = await unlockAudio()
        const r = await startMicRecording(ctx, {
          store: idbChunkStore,
          onLevel: (p, rms) => levelCb.current(p, rms),
          // Stopped, the take lands at the playhead; playing, where the mix was heard.
          timelinePositionAt: (t) => mixerEngine.timelinePositionAt(t) ?? mixerEngine.position(),
          captureFrom,
        })
        recording.current = r
        void r.ended.then(() => {
          if (recording.current === r) {
            notify.error('Microphone disconnected', { description: 'The recording was stopped and kept.' })
            void stop()
          }
        })
        setPhase('recording')
        notify.success('Recording started')
        return true
      } catch (err) {
        const message = err instanceof MicrophoneError ? err.message : `Recording could not start: ${errorMessage(err)}`
        setError(message)
        notify.error('Microphone unavailable', { description: message })
        setPhase('idle')
        return false
      }
    },
    [stop],
  )

  return { phase, elapsed, error, start, stop, dismissError: () => setError(null) }
}
