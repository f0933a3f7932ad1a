import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'

export function VolumeControl() {
  const volume = usePlayerStore((s) => s.volume)
  return (
    <label className="flex items-center gap-2 text-muted">
      <Icon name="volume" size={16} />
      <span className="sr-only">Volume</span>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={volume}
        onChange={(e) => usePlayerStore.getState().setVolume(Number(e.currentTarget.value))}
        aria-label="Volume"
        aria-valuetext={`${volume} percent`}
        className="h-1 min-w-0 flex-1 cursor-pointer accent-[var(--theme-secondary)]"
      />
      <span className="w-8 text-right text-xs tabular-nums" data-testid="player-volume">
        {volume}
      </span>
    </label>
  )
}
