import { useEffect } from 'react'
import { Link, useParams } from 'react-router-dom'
import type { RecentListen } from '../../backend/follows.ts'
import { Icon } from '../../ui/Icon.tsx'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { catalogueSong } from '../../domain/collection/catalogue-song.ts'
import { recordProfileVisit } from '../../domain/analytics/view-recorder.ts'
import { useAvatarSrc } from '../../domain/profile/use-avatar-src.ts'
import { PublicPlaylists } from './PublicPlaylists.tsx'
import { loadProfile, useFollow, type ProfileView as ProfileData } from './user-profile.ts'
import { FIGURE_LABELS } from '../../domain/economy/figure-labels.ts'
import { PublicDataPage } from './PublicDataPage.tsx'

function PrivateProfile({ username }: { username: string }) {
  useEffect(() => {
    document.title = `${username} · CUBE Music`
  }, [username])
  return (
    <section className="panel space-y-2 p-6" aria-labelledby="profile-name" data-testid="user-page-private">
      <h1 id="profile-name" className="font-display text-3xl font-bold break-words text-primary neon-text">
        {username}
      </h1>
      <p className="text-muted">This profile is private.</p>
    </section>
  )
}

function RecentlyPlayed({ recent, username }: { recent: RecentListen[]; username: string }) {
  if (recent.length === 0) return null
  return (
    <section className="panel p-6" aria-labelledby="recent-heading" data-testid="recently-played">
      <h2 id="recent-heading" className="font-display text-xl font-bold text-accent">
        Recently played
      </h2>
      <ul className="mt-3 flex flex-col gap-1 text-sm" aria-label={`Recently played by ${username}`}>
        {recent.map((r) => (
          <li key={r.song_id}>
            <Link to={`/song/${r.slug}`} className="font-semibold hover:text-primary">
              {r.title}
            </Link>{' '}
            <span className="text-muted">· {r.artist}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** /user/{username}: a public profile with its published tracks and Follow/Unfollow. */
export default function UserPage() {
  const { username = '' } = useParams()
  return (
    <PublicDataPage load={loadProfile} name={username} what="profile">
      {(view) =>
        'private' in view ? <PrivateProfile username={view.private.username} /> : <ProfileView key={view.profile.user_id} view={view} />
      }
    </PublicDataPage>
  )
}

function ProfileView({ view: { profile, songs, recent } }: { view: ProfileData }) {
  const { me, self, counts, following, busy, toggle } = useFollow(profile)
  const avatarSrc = useAvatarSrc(profile.avatar_url)

  useEffect(() => {
    document.title = `${profile.username} · CUBE Music`
  }, [profile.username])

  // A visit counts for the profile's Share & Earn analytics (the server keeps one per viewer per day).
  useEffect(() => {
    recordProfileVisit(profile.username)
  }, [profile.username])

  return (
    <div className="flex flex-col gap-6">
      <section className="panel flex flex-col gap-4 p-6 sm:flex-row sm:items-center" aria-labelledby="profile-name" data-testid="user-page">
        {avatarSrc ? (
          <img
            src={avatarSrc}
            alt={`${profile.username}'s avatar`}
            className="h-24 w-24 rounded-full border border-primary object-cover"
            data-testid="user-avatar"
          />
        ) : (
          <div
            aria-hidden
            className={
              'flex h-24 w-24 items-center justify-center rounded-full border border-primary bg-primary/10 ' +
              'font-display text-4xl font-black text-primary'
            }
          >
            {profile.username.slice(0, 1).toUpperCase()}
          </div>
        )}
        <div className="min-w-0 flex-1 space-y-1">
          <h1 id="profile-name" className="font-display text-3xl font-bold break-words text-primary neon-text">
            {profile.username}
          </h1>
          {profile.bio && <p className="text-fg/90">{profile.bio}</p>}
          <p className="text-sm text-muted">
            Joined {new Date(profile.created_at).toLocaleDateString(undefined, { year: 'numeric', month: 'long' })}
          </p>
          <dl className="flex gap-6 pt-1 text-sm">
            <div>
              <dt className="text-muted">Followers</dt>
              <dd className="text-lg font-bold tabular-nums" data-testid="followers-count">
                {counts ? counts.followers : '...'}
              </dd>
            </div>
            <div>
              <dt className="text-muted">Following</dt>
              <dd className="text-lg font-bold tabular-nums" data-testid="following-count">
                {counts ? counts.following : '...'}
              </dd>
            </div>
            <div>
              <dt className="text-muted">{FIGURE_LABELS.publishedSongs}</dt>
              <dd className="text-lg font-bold tabular-nums">{songs.length}</dd>
            </div>
          </dl>
        </div>
        {!self && (
          <button
            type="button"
            onClick={() => void toggle()}
            disabled={busy || (me !== null && following === null)}
            aria-pressed={following === true}
            className={
              `rounded-md px-5 py-2 font-semibold disabled:opacity-60 ` +
              `${following ? 'border border-primary text-primary' : 'bg-primary text-bg'}`
            }
          >
            {following ? 'Unfollow' : 'Follow'}
          </button>
        )}
      </section>
      <section className="panel p-6" aria-labelledby="tracks-heading">
        <h2 id="tracks-heading" className="font-display text-xl font-bold text-accent">
          Published tracks
        </h2>
        {songs.length === 0 ? (
          <p className="mt-2 text-muted">{profile.username} has not published a track yet.</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-2" aria-label={`Tracks by ${profile.username}`}>
            {songs.map((row) => (
              <li key={row.id} className="flex items-center gap-3 rounded-lg border border-line bg-panel/80 px-3 py-2">
                <button
                  type="button"
                  onClick={() => usePlayerStore.getState().playSong(catalogueSong(row))}
                  aria-label={`Play ${row.title}`}
                  className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary text-bg"
                >
                  <Icon name="play" size={16} />
                </button>
                <img src={catalogueSong(row).image} alt="" className="h-10 w-10 rounded border border-line object-cover" />
                <Link to={`/song/${row.slug}`} className="min-w-0 flex-1 truncate font-semibold hover:text-primary">
                  {row.title}
                </Link>
                <span className="text-sm text-muted tabular-nums">{catalogueSong(row).duration}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <RecentlyPlayed recent={recent} username={profile.username} />
      <PublicPlaylists userId={profile.user_id} username={profile.username} own={self} />
    </div>
  )
}
