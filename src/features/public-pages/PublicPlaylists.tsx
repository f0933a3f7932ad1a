import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { fetchOwnPlaylistVisibility, fetchPublicPlaylists, setPlaylistPublic, type PublicPlaylist } from '../../backend/follows.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'

const fetchBoth = (userId: string, own: boolean) => Promise.all([fetchPublicPlaylists(userId), own ? fetchOwnPlaylistVisibility(userId) : Promise.resolve([])])

/** A profile's public playlists; on your own profile, the switches that make them public. */
export function PublicPlaylists({ userId, username, own }: { userId: string; username: string; own: boolean }) {
  const [lists, setLists] = useState<PublicPlaylist[] | null>(null)
  const [mine, setMine] = useState<{ id: string; name: string; is_public: boolean }[]>([])

  useEffect(() => {
    let live = true
    fetchBoth(userId, own).then(
      ([shown, owned]) => {
        if (!live) return
        setLists(shown)
        setMine(owned)
      },
      (error: unknown) => notify.error(`Playlists could not be loaded: ${errorMessage(error)}`),
    )
    return () => {
      live = false
    }
  }, [userId, own])

  const toggle = async (id: string, isPublic: boolean) => {
    // The switch follows the click at once; the server's answer then decides both lists.
    setMine((list) => list.map((p) => (p.id === id ? { ...p, is_public: isPublic } : p)))
    try {
      await setPlaylistPublic(id, isPublic)
      const [shown, owned] = await fetchBoth(userId, own)
      setLists(shown)
      setMine(owned)
    } catch (error) {
      notify.error(`Could not change the playlist: ${errorMessage(error)}`)
      setMine((list) => list.map((p) => (p.id === id ? { ...p, is_public: !isPublic } : p)))
    }
  }

  return (
    <section className="panel p-6" aria-labelledby="playlists-heading">
      <h2 id="playlists-heading" className="font-display text-xl font-bold text-accent">
        Public playlists
      </h2>
      {lists === null ? (
        <p className="mt-2 text-muted">Loading…</p>
      ) : lists.length === 0 ? (
        <p className="mt-2 text-muted">{own ? 'None of your playlists is public yet.' : `${username} has no public playlists.`}</p>
      ) : (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2" aria-label={`Public playlists of ${username}`}>
          {lists.map((list) => (
            <li key={list.id} className="rounded-lg border border-line bg-panel/80 p-3" data-testid="public-playlist">
              <h3 className="font-semibold">{list.name}</h3>
              <p className="text-sm text-muted">{list.track_count} {list.track_count === 1 ? 'track' : 'tracks'}</p>
              <ul className="mt-1 text-sm">
                {list.songs.slice(0, 3).map((s) => (
                  <li key={s.id} className="truncate">
                    <Link to={`/song/${s.slug}`} className="hover:text-primary">
                      {s.title}
                    </Link>{' '}
                    <span className="text-muted">· {s.artist}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {own && mine.length > 0 && (
        <fieldset className="mt-4 text-sm">
          <legend className="text-muted">Show on your profile (playlists saved in your account)</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {mine.map((p) => (
              <label key={p.id} className="flex items-center gap-2">
                <input type="checkbox" checked={p.is_public} onChange={(e) => void toggle(p.id, e.currentTarget.checked)} /> {p.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </section>
  )
}
