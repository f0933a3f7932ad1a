import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { formatTime } from '../../lib/time-format.ts'

/** Progress with seeking (a native range input: keyboard, pointer and screen readers for free). */
export function SeekBar() {
  const position = usePlayerStore((s) => s.position)
  const duration = usePlayerStore((s) => s.duration)
  const hasSong = usePlayerStore((s) => s.currentSong !== null)
  const max = duration > 0 ? duration : 0
  return (
    <div className="flex items-center gap-2 text-xs text-muted tabular-nums">
      <span data-testid="player-position">{formatTime(position)}</span>
      <input
        type="range"
        min={0}
        max={max || 1}
        step={0.1}
        value={Math.min(position, max || 1)}
        disabled={!hasSong || max === 0}
        onChange={(e) => usePlayerStore.getState().seek(Number(e.currentTarget.value))}
        aria-label="Seek"
        aria-valuetext={`${formatTime(position)} of ${formatTime(max)}`}
        className="h-1 min-w-0 flex-1 cursor-pointer accent-[var(--theme-primary)]"
      />
      <span data-testid="player-duration">{formatTime(max)}</span>
    </div>
  )
}
