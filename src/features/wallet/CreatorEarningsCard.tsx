import { Link } from 'react-router-dom'
import { useCreatorEarnings } from '../../domain/economy/creator-earnings.ts'

/**
 * A creator's pay from listening: each credited listen of their published song by someone else
 * pays them (the server's figure per listen, up to its daily cap), per song.
 */
export function CreatorEarningsCard() {
  const state = useCreatorEarnings()
  if (state.status === 'signed-out' || state.status === 'loading') return null
  if (state.status === 'error')
    return (
      <section className="panel p-5" aria-label="Creator earnings" data-testid="creator-earnings">
        <p className="text-sm text-accent">{state.message}</p>
      </section>
    )
  const { earnings } = state
  // Listeners who have published nothing see nothing here.
  if (earnings.songs.length === 0) return null
  return (
    <section className="panel p-5" aria-labelledby="creator-earnings-title" data-testid="creator-earnings">
      <h2 id="creator-earnings-title" className="font-display text-lg font-bold text-primary">
        Creator earnings
      </h2>
      <p className="mt-1 text-sm text-muted">
        Each rewarded listen of your published songs by someone else pays you {earnings.per_listen} CUBE, up to {earnings.daily_cap} CUBE a
        day. Plays from your own accounts or devices, and from accounts under a day old, pay nothing.
      </p>
      <p className="mt-3">
        <span data-testid="creator-earnings-total" className="font-display text-2xl font-bold text-primary">
          {earnings.total} CUBE
        </span>{' '}
        <span className="text-sm text-muted">
          in all · <span data-testid="creator-earnings-today">{earnings.today}</span> / {earnings.daily_cap} today
        </span>
      </p>
      <ul className="mt-3 divide-y divide-line" aria-label="Earnings per song">
        {earnings.songs.map((s) => (
          <li key={s.song_id} className="flex items-center justify-between gap-3 py-2" data-testid="creator-earnings-song">
            <Link to={`/song/${s.slug}`} className="min-w-0 truncate text-fg hover:text-primary">
              {s.title}
            </Link>
            <span className="shrink-0 text-sm text-muted">
              {s.listens} {s.listens === 1 ? 'listen' : 'listens'} · <span className="font-bold text-primary">{s.cube} CUBE</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
