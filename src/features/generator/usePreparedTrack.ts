import { useEffect, useState } from 'react'
import { notify } from '../../lib/notify.ts'
import type { Score } from '../../engine/composer.ts'
import { prepareTrack, type GeneratedTrack } from './generated-track.ts'
import { GENERATION_FAILED_MESSAGE, GENERATION_FAILED_TITLE } from './generation-machine.ts'

/** Turns a finished render into a playable, savable track (WAV encoded in the worker). */
export function usePreparedTrack(score: Score | null, buffer: AudioBuffer | null): GeneratedTrack | null {
  const [track, setTrack] = useState<GeneratedTrack | null>(null)
  useEffect(() => {
    if (!score || !buffer) {
      setTrack(null)
      return
    }
    let cancelled = false
    prepareTrack(score, buffer).then(
      (t) => !cancelled && setTrack(t),
      (err: unknown) => {
        console.error('[generator] encoding', err)
        if (!cancelled) notify.error(GENERATION_FAILED_TITLE, { description: GENERATION_FAILED_MESSAGE })
      },
    )
    return () => {
      cancelled = true
    }
  }, [score, buffer])
  return track
}
