import { Link } from 'react-router-dom'
import { usePublicPlaylists } from './usePublicPlaylists.ts'

/** A profile's public playlists; on your own profile, the switches that make them public. */
export function PublicPlaylists({ userId, username, own }: { userId: string; username: string; own: boolean }) {
  const { lists, mine, setPublic } = usePublicPlaylists(userId, own)

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
              <p className="text-sm text-muted">
                {list.track_count} {list.track_count === 1 ? 'track' : 'tracks'}
              </p>
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
                <input type="checkbox" checked={p.is_public} onChange={(e) => void setPublic(p.id, e.currentTarget.checked)} /> {p.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </section>
  )
}
