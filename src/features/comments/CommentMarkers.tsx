import { formatTime } from '../../lib/time-format.ts'
import { pinnedComments } from './thread-model.ts'
import { useCommentThread } from './useCommentThread.ts'

/**
 * The song's pinned comments as markers over its waveform (the WaveformMarkers slot), live as the
 * thread is: each one names its author, moment and words, and plays the song from there (`onSeek`).
 */
export function CommentMarkers({ songId, duration, onSeek }: { songId: string; duration: number; onSeek: (seconds: number) => void }) {
  const { state } = useCommentThread(songId)
  const pins = pinnedComments(state, duration)
  if (pins.length === 0) return null
  return (
    <ul
      aria-label="Comments on the waveform"
      className="pointer-events-none absolute inset-x-0 bottom-0 z-20 h-5"
      data-testid="waveform-markers"
    >
      {pins.map((c) => {
        const at = c.at_seconds ?? 0
        const words = c.body.length > 60 ? `${c.body.slice(0, 59)}…` : c.body
        return (
          <li key={c.id} className="absolute bottom-0 -translate-x-1/2" style={{ left: `${(at / duration) * 100}%` }}>
            <button
              type="button"
              onClick={() => onSeek(at)}
              aria-label={`Comment by ${c.username} at ${formatTime(at)}: ${words}`}
              title={`${c.username} at ${formatTime(at)}: ${words}`}
              data-testid="waveform-marker"
              data-at={at}
              className="pointer-events-auto block h-4 w-4 rounded-full border-2 border-bg bg-accent shadow hover:scale-125 focus:scale-125"
            />
          </li>
        )
      })}
    </ul>
  )
}
