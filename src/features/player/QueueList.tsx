import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { Icon } from '../../ui/Icon.tsx'
import { SongSummary } from '../../ui/SongSummary.tsx'

export function QueueList() {
  const queue = usePlayerStore((s) => s.queue)
  const currentId = usePlayerStore((s) => s.currentSong?.id)
  const { playQueueIndex, removeFromQueue, clearQueue } = usePlayerStore.getState()
  return (
    <section aria-labelledby="queue-title" className="panel p-4">
      <div className="flex items-center justify-between">
        <h2 id="queue-title" className="font-display text-lg font-bold text-primary">
          Queue <span className="text-sm text-muted">({queue.length})</span>
        </h2>
        {queue.length > 0 && (
          <button
            type="button"
            onClick={() => clearQueue()}
            className="rounded border border-line px-2 py-1 text-xs text-muted hover:text-fg"
          >
            Clear queue
          </button>
        )}
      </div>
      {queue.length === 0 ? (
        <p className="mt-2 text-sm text-muted">The queue is empty. Add tracks from your Library.</p>
      ) : (
        <ol className="mt-3 space-y-1" aria-label="Queued tracks">
          {queue.map((song, i) => {
            const current = song.id === currentId
            return (
              <li
                key={song.id}
                aria-current={current ? 'true' : undefined}
                className={`flex items-center gap-3 rounded-md px-2 py-1.5 ${current ? 'bg-primary/10 text-primary' : ''}`}
              >
                <SongSummary song={song} />
                <button
                  type="button"
                  onClick={() => playQueueIndex(i)}
                  aria-label={`Play ${song.title} from queue`}
                  className="rounded p-1 hover:text-primary"
                >
                  <Icon name="play" size={16} />
                </button>
                <button
                  type="button"
                  onClick={() => removeFromQueue(song.id)}
                  aria-label={`Remove ${song.title} from queue`}
                  className="rounded p-1 text-muted hover:text-secondary"
                >
                  <Icon name="trash" size={16} />
                </button>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}
