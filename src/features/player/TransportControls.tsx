import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'

/** Previous / play-pause / next, shared by the player bar, its sheet and the Now Playing page. */
export function TransportControls({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const isPlaying = usePlayerStore((s) => s.isPlaying)
  const hasQueue = usePlayerStore((s) => s.queue.length > 0)
  const { togglePlay, next, previous } = usePlayerStore.getState()
  const big = size === 'lg'
  const side = `rounded-full p-2 text-fg hover:text-primary disabled:opacity-40 ${big ? 'p-3' : ''}`
  return (
    <div className="flex items-center justify-center gap-3">
      <button type="button" className={side} onClick={() => previous()} disabled={!hasQueue} aria-label="Previous track">
        <Icon name="prev" size={big ? 24 : 18} />
      </button>
      <button
        type="button"
        onClick={() => togglePlay()}
        disabled={!hasQueue}
        aria-label={isPlaying ? 'Pause' : 'Play'}
        className={
          `flex items-center justify-center rounded-full bg-primary text-bg neon-box disabled:opacity-40 ` +
          `${big ? 'h-16 w-16' : 'h-11 w-11'}`
        }
      >
        <Icon name={isPlaying ? 'pause' : 'play'} size={big ? 28 : 20} />
      </button>
      <button type="button" className={side} onClick={() => next()} disabled={!hasQueue} aria-label="Next track">
        <Icon name="next" size={big ? 24 : 18} />
      </button>
    </div>
  )
}
