import { useEffect, useState } from 'react'
import { notify } from '../../lib/notify.ts'
import type { Score } from '../../engine/composer.ts'
import { prepareTrack, type GeneratedTrack } from './generated-track.ts'
import { GENERATION_FAILED_MESSAGE, GENERATION_FAILED_TITLE } from './generation-machine.ts'

/** Turns a finished render into a playable, savable track (WAV encoded in the worker). */
export function usePreparedTrack(score: Score | null, buffer: AudioBuffer | null): GeneratedTrack | null {
  // The track prepared from one render; only the current render's track is returned.
  const [prepared, setPrepared] = useState<{ score: Score; buffer: AudioBuffer; track: GeneratedTrack } | null>(null)
  useEffect(() => {
    if (!score || !buffer) return
    let cancelled = false
    prepareTrack(score, buffer).then(
      (track) => !cancelled && setPrepared({ score, buffer, track }),
      (err: unknown) => {
        console.error('[generator] encoding', err)
        if (!cancelled) notify.error(GENERATION_FAILED_TITLE, { description: GENERATION_FAILED_MESSAGE })
      },
    )
    return () => {
      cancelled = true
    }
  }, [score, buffer])
  return prepared && prepared.score === score && prepared.buffer === buffer ? prepared.track : null
}
