import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { catalogueSong } from '../../domain/collection/catalogue-song.ts'
import { loadMyPublished, unpublish } from './publish-service.ts'
import { usePublishedStore } from './published-store.ts'

/** The Library's 'Published' list: the signed-in user's songs in the public catalogue. */
export function PublishedSection() {
  const userId = useSessionStore((s) => s.user?.id ?? null)
  const mine = usePublishedStore((s) => (s.ownerId === userId ? s.mine : []))
  const status = usePublishedStore((s) => s.status)
  const [removing, setRemoving] = useState<string | null>(null)

  useEffect(() => {
    loadMyPublished(userId).catch((error: unknown) => notify.error(`Your published tracks could not be loaded: ${errorMessage(error)}`))
  }, [userId])

  if (!userId) return null
  const remove = async (id: string, title: string) => {
    if (!window.confirm(`Unpublish “${title}”? Its page and public audio are removed; listens stay in history.`)) return
    setRemoving(id)
    try {
      await unpublish(id, userId)
      notify.success(`Unpublished “${title}”`)
    } catch (error) {
      notify.error(`Could not unpublish: ${errorMessage(error)}`)
    } finally {
      setRemoving(null)
    }
  }

  return (
    <section aria-labelledby="published-heading" className="mt-6">
      <h2 id="published-heading" className="font-display text-xl font-bold text-accent">
        Published
      </h2>
      {mine.length === 0 ? (
        <p className="mt-2 text-sm text-muted">
          {status === 'loading' ? 'Loading…' : 'Nothing published yet: publish a track you made with the upload button on its card.'}
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2" aria-label="Published tracks" data-testid="published-list">
          {mine.map((row) => (
            <li
              key={row.id}
              data-testid="published-track"
              className="flex items-center gap-3 rounded-lg border border-line bg-panel/80 px-3 py-2"
            >
              <button
                type="button"
                onClick={() => usePlayerStore.getState().playSong(catalogueSong(row))}
                aria-label={`Play ${row.title}`}
                className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary text-bg"
              >
                <Icon name="play" size={16} />
              </button>
              <img src={row.cover_url ?? ''} alt="" className="h-10 w-10 rounded border border-line object-cover" />
              <div className="min-w-0 flex-1">
                <Link to={`/song/${row.slug}`} className="block truncate font-semibold hover:text-primary">
                  {row.title}
                </Link>
                <p className="truncate text-sm text-muted">
                  {row.genre} · {catalogueSong(row).duration}
                </p>
              </div>
              <button
                type="button"
                disabled={removing === row.id}
                onClick={() => void remove(row.id, row.title)}
                className="rounded-md border border-secondary px-3 py-1 text-sm text-secondary disabled:opacity-60"
              >
                {removing === row.id ? 'Removing…' : 'Unpublish'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
