import { useEffect, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { fetchFollowCounts, fetchProfileByUsername, fetchProfileName, fetchRecentListens, follow, isFollowing, unfollow, type RecentListen } from '../../backend/follows.ts'
import type { ProfileRow } from '../../backend/profile.ts'
import { fetchSongsByOwner, type CatalogueRow } from '../../backend/publishing.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { catalogueSong } from '../../domain/collection/catalogue-song.ts'
import { recordProfileVisit } from '../../domain/analytics/view-recorder.ts'
import { useAvatarSrc } from '../../domain/profile/use-avatar-src.ts'
import { PublicPlaylists } from './PublicPlaylists.tsx'
import { PublicDataPage } from './PublicDataPage.tsx'

interface ProfileView {
  profile: ProfileRow
  songs: CatalogueRow[]
  recent: RecentListen[]
}

type Loaded = ProfileView | { private: { user_id: string; username: string } }

async function loadProfile(username: string): Promise<Loaded | null> {
  const profile = await fetchProfileByUsername(username)
  if (!profile) {
    // RLS hides a private profile; the name alone is public.
    const name = await fetchProfileName(username)
    return name?.private ? { private: { user_id: name.user_id, username: name.username } } : null
  }
  const [songs, recent] = await Promise.all([fetchSongsByOwner(profile.user_id), fetchRecentListens(profile.user_id)])
  return { profile, songs, recent }
}

function PrivateProfile({ username }: { username: string }) {
  useEffect(() => {
    document.title = `${username} · CUBE Music`
  }, [username])
  return (
    <section className="panel space-y-2 p-6" aria-labelledby="profile-name" data-testid="user-page-private">
      <h1 id="profile-name" className="font-display text-3xl font-bold break-words text-primary neon-text">{username}</h1>
      <p className="text-muted">This profile is private.</p>
    </section>
  )
}

function RecentlyPlayed({ recent, username }: { recent: RecentListen[]; username: string }) {
  if (recent.length === 0) return null
  return (
    <section className="panel p-6" aria-labelledby="recent-heading" data-testid="recently-played">
      <h2 id="recent-heading" className="font-display text-xl font-bold text-accent">Recently played</h2>
      <ul className="mt-3 flex flex-col gap-1 text-sm" aria-label={`Recently played by ${username}`}>
        {recent.map((r) => (
          <li key={r.song_id}>
            <Link to={`/song/${r.slug}`} className="font-semibold hover:text-primary">{r.title}</Link> <span className="text-muted">· {r.artist}</span>
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
      {(view) => ('private' in view ? <PrivateProfile username={view.private.username} /> : <ProfileView key={view.profile.user_id} view={view} />)}
    </PublicDataPage>
  )
}

function ProfileView({ view: { profile, songs, recent } }: { view: ProfileView }) {
  const me = useSessionStore((s) => s.user)
  const [counts, setCounts] = useState<{ followers: number; following: number } | null>(null)
  const [following, setFollowing] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const self = me?.id === profile.user_id
  const avatarSrc = useAvatarSrc(profile.avatar_url)

  useEffect(() => {
    document.title = `${profile.username} · CUBE Music`
  }, [profile.username])

  // A visit counts for the profile's Share & Earn analytics (the server keeps one per viewer per day).
  useEffect(() => {
    recordProfileVisit(profile.username)
  }, [profile.username])

  useEffect(() => {
    let live = true
    fetchFollowCounts(profile.user_id).then((c) => live && setCounts(c), (e: unknown) => notify.error(`Follower counts could not be loaded: ${errorMessage(e)}`))
    if (me && !self) isFollowing(me.id, profile.user_id).then((f) => live && setFollowing(f), () => undefined)
    return () => {
      live = false
    }
  }, [profile.user_id, me, self])

  const toggle = async () => {
    if (!me) {
      notify(`Sign in to follow ${profile.username}.`)
      useAuthModalStore.getState().open('login')
      return
    }
    setBusy(true)
    try {
      if (following) await unfollow(me.id, profile.user_id)
      else await follow(me.id, profile.user_id)
      setFollowing(!following)
      setCounts(await fetchFollowCounts(profile.user_id))
    } catch (error) {
      notify.error(`Could not ${following ? 'unfollow' : 'follow'}: ${errorMessage(error)}`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <section className="panel flex flex-col gap-4 p-6 sm:flex-row sm:items-center" aria-labelledby="profile-name" data-testid="user-page">
        {avatarSrc ? (
          <img src={avatarSrc} alt={`${profile.username}'s avatar`} className="h-24 w-24 rounded-full border border-primary object-cover" data-testid="user-avatar" />
        ) : (
          <div aria-hidden className="flex h-24 w-24 items-center justify-center rounded-full border border-primary bg-primary/10 font-display text-4xl font-black text-primary">
            {profile.username.slice(0, 1).toUpperCase()}
          </div>
        )}
        <div className="min-w-0 flex-1 space-y-1">
          <h1 id="profile-name" className="font-display text-3xl font-bold break-words text-primary neon-text">
            {profile.username}
          </h1>
          {profile.bio && <p className="text-fg/90">{profile.bio}</p>}
          <p className="text-sm text-muted">Joined {new Date(profile.created_at).toLocaleDateString(undefined, { year: 'numeric', month: 'long' })}</p>
          <dl className="flex gap-6 pt-1 text-sm">
            <div>
              <dt className="text-muted">Followers</dt>
              <dd className="text-lg font-bold tabular-nums" data-testid="followers-count">{counts ? counts.followers : '...'}</dd>
            </div>
            <div>
              <dt className="text-muted">Following</dt>
              <dd className="text-lg font-bold tabular-nums" data-testid="following-count">{counts ? counts.following : '...'}</dd>
            </div>
            <div>
              <dt className="text-muted">Tracks</dt>
              <dd className="text-lg font-bold tabular-nums">{songs.length}</dd>
            </div>
          </dl>
        </div>
        {!self && (
          <button type="button" onClick={() => void toggle()} disabled={busy || (me !== null && following === null)} aria-pressed={following === true} className={`rounded-md px-5 py-2 font-semibold disabled:opacity-60 ${following ? 'border border-primary text-primary' : 'bg-primary text-bg'}`}>
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
                <button type="button" onClick={() => usePlayerStore.getState().playSong(catalogueSong(row))} aria-label={`Play ${row.title}`} className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-primary text-bg">
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
