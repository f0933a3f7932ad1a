import { useEffect, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import { putMixerAudio } from '../../../engine/mixer-audio.ts'
import type { RecordingSession } from '../../../engine/recorder-chunks.ts'
import { recoverSession } from '../../../engine/recorder.ts'
import { idbChunkStore } from '../../../engine/project-db.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'

/** Offers takes that were interrupted (reload, crash, tab closed) for recovery or discarding. */
export function RecoveryBanner({ busy }: { busy: boolean }) {
  const [sessions, setSessions] = useState<RecordingSession[]>([])
  useEffect(() => {
    if (busy) return
    idbChunkStore
      .sessions()
      .then((s) => setSessions(s.sort((a, b) => a.startedAt - b.startedAt)))
      .catch(() => setSessions([]))
  }, [busy])
  if (busy || sessions.length === 0) return null
  const drop = (id: string) => setSessions((s) => s.filter((x) => x.id !== id))
  return (
    <div role="alert" className="panel border-accent p-3 text-sm">
      {sessions.map((s) => (
        <div key={s.id} className="flex flex-wrap items-center gap-2" data-testid="recovery-item">
          <span className="flex-1">An unfinished recording from {new Date(s.startedAt).toLocaleString()} was found.</span>
          <button
            type="button"
            className="rounded border border-accent px-3 py-1 text-accent"
            onClick={async () => {
              try {
                const channels = await recoverSession(idbChunkStore, s)
                const frames = channels[0]?.length ?? 0
                if (frames > 0) {
                  const audioId = `rec-${s.id}`
                  putMixerAudio({ id: audioId, sampleRate: s.sampleRate, channels })
                  useMixerStore.getState().addRecording({ audioId, duration: frames / s.sampleRate, offset: s.timelineOffset })
                  notify.success('Recording recovered', { description: `${(frames / s.sampleRate).toFixed(1)} s restored` })
                } else notify('Nothing to recover', { description: 'The recording had no saved audio.' })
                await idbChunkStore.remove(s.id)
                drop(s.id)
              } catch (err) {
                notify.error('Recovery failed', { description: errorMessage(err) })
              }
            }}
          >
            Recover recording
          </button>
          <button
            type="button"
            className="rounded border border-line px-3 py-1"
            onClick={() => {
              void idbChunkStore.remove(s.id).then(() => drop(s.id))
            }}
          >
            Discard
          </button>
        </div>
      ))}
    </div>
  )
}
