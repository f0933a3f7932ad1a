import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { formatTime } from '../../lib/time-format.ts'

/**
 * The song was playing when the page reloaded and the browser does not let a page start sound
 * without a click: one click resumes it where it was.
 */
export function ResumeAfterReload({ className = '' }: { className?: string }) {
  const offered = usePlayerStore((s) => s.resumeOffered && !s.isPlaying && s.currentSong !== null)
  const position = usePlayerStore((s) => s.position)
  if (!offered) return null
  return (
    <div data-testid="resume-after-reload" className={`flex items-center gap-2 text-xs ${className}`}>
      <span className="min-w-0 truncate text-muted">Paused by the reload.</span>
      <button
        type="button"
        onClick={() => usePlayerStore.getState().play()}
        className="shrink-0 rounded-full border border-primary px-3 py-1 font-semibold text-primary hover:bg-primary/10"
      >
        Resume at {formatTime(position)}
      </button>
      <button
        type="button"
        onClick={() => usePlayerStore.getState().dismissResume()}
        aria-label="Dismiss resume"
        className="shrink-0 rounded-full px-2 py-1 text-muted hover:text-fg"
      >
        ×
      </button>
    </div>
  )
}
