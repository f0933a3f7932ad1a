import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { copyShareLink } from '../../../domain/economy/share-item.ts'
import { Icon } from '../../../ui/Icon.tsx'
import { relativeTime } from '../../../lib/relative-time.ts'
import { useAuthModalStore } from '../../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { usePlayerStore } from '../../../domain/playback/player-store.ts'
import { useListenRules } from '../../../domain/economy/reward-rules.ts'
import { useQuery } from '@tanstack/react-query'
import { profileKeys } from '../../../domain/profile/profile-keys.ts'
import { loadProfile, SAMPLE_PROFILE, type ProfileView } from './profile-data.ts'
import { ProfileBanner } from './ProfileBanner.tsx'
import { Slot } from '../../../ui/slots.tsx'
import { FIGURE_LABELS } from '../../../domain/economy/figure-labels.ts'
import { useAvatarSrc } from '../../../domain/profile/use-avatar-src.ts'

function Avatar({ name, url }: { name: string; url: string | null }) {
  const src = useAvatarSrc(url)
  const initials = name.slice(0, 2).toUpperCase()
  return (
    <div
      className={
        'neon-box flex h-24 w-24 shrink-0 items-center justify-center overflow-hidden rounded-full border-4 ' +
        'border-bg bg-gradient-to-br from-primary/60 to-secondary/60 font-display text-3xl font-black text-bg'
      }
    >
      {src ? <img src={src} alt={`${name}'s avatar`} className="h-full w-full object-cover" /> : <span aria-hidden>{initials}</span>}
    </div>
  )
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  const id = `profile-${testId}`
  return (
    <section className="panel space-y-3 p-5" aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="font-display text-lg font-bold text-primary">
        {title}
      </h2>
      {children}
    </section>
  )
}

function useProfileView(): { view: ProfileView | null; preview: boolean; failed: boolean } {
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id)
  const email = useSessionStore((s) => s.user?.email ?? '')
  const query = useQuery({
    queryKey: [...profileKeys.own(userId ?? ''), email],
    queryFn: () => loadProfile(userId!, email),
    enabled: !!userId,
    retry: false,
  })
  if (status === 'signed-out') return { view: SAMPLE_PROFILE, preview: true, failed: false }
  // Profile fetch errors are logged by the query; the page says it could not load instead of inventing data.
  if (query.isError) return { view: null, preview: false, failed: true }
  return { view: (userId && query.data) || null, preview: false, failed: false }
}

/** A tokened profile link for a signed-in user (credited when someone else opens it). */
const shareProfile = (username: string) => copyShareLink({ type: 'user', id: username, title: username })

export default function ProfilePage() {
  const { view, preview, failed } = useProfileView()
  const openAuth = useAuthModalStore((s) => s.open)
  const playSong = usePlayerStore((s) => s.playSong)
  const qualifySeconds = useListenRules().qualify_seconds
  const userId = useSessionStore((s) => s.user?.id)
  useEffect(() => {
    document.title = 'My Profile · CUBE Music'
  }, [])

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">My Profile</h1>
      {preview && (
        <div
          role="note"
          className="panel flex flex-wrap items-center justify-between gap-3 border-accent/60 p-4"
          data-testid="profile-preview-notice"
        >
          <p className="text-sm text-fg">
            <strong className="text-accent">Preview mode:</strong> you are seeing sample data. Log in or register to see your own profile,
            wallet and listening history.
          </p>
          <button
            type="button"
            onClick={() => openAuth('login')}
            className="rounded-md border border-primary/60 px-3 py-1.5 text-sm font-semibold text-primary hover:bg-primary/10"
          >
            Login / Register
          </button>
        </div>
      )}
      {failed && (
        <p role="alert" className="panel p-4 text-sm text-red-400">
          Your profile could not be loaded. Check your connection and reload the page.
        </p>
      )}
      {!view && !failed && (
        <p className="text-muted" aria-live="polite">
          Loading profile…
        </p>
      )}
      {view && (
        <>
          <section className="panel overflow-hidden" aria-label="Profile" data-testid="profile-header">
            <ProfileBanner key={preview ? 'preview' : userId} username={view.username} userId={preview ? null : (userId ?? null)} />
            <div className="flex flex-col gap-4 px-5 pb-5 sm:flex-row sm:items-end">
              {/* Positioned and above the banner (itself positioned), so the banner never covers it. */}
              <div className="relative z-10 -mt-12" data-testid="profile-avatar">
                <Avatar name={view.username} url={view.avatarUrl} />
              </div>
              <div className="min-w-0 flex-1">
                <p className="font-display text-2xl font-bold text-fg" data-testid="profile-username">
                  {view.username}
                </p>
                <p className="mt-1 text-sm text-fg/80" data-testid="profile-bio">
                  {view.bio}
                </p>
                {view.joined && <p className="mt-1 text-xs text-muted">Joined {view.joined}</p>}
              </div>
              <button
                type="button"
                onClick={() => void shareProfile(view.username)}
                className={
                  'flex items-center gap-2 self-start rounded-md border border-primary/60 px-3 py-2 text-sm ' +
                  'font-semibold text-primary hover:bg-primary/10 sm:self-end'
                }
              >
                <Icon name="share" size={16} /> Share Profile
              </button>
            </div>
            <dl className="grid grid-cols-3 border-t border-line text-center">
              {(
                [
                  ['Followers', view.followers, 'followers'],
                  ['Following', view.following, 'following'],
                  [FIGURE_LABELS.playsAllTime, view.tracks, 'plays'],
                ] as const
              ).map(([label, n, key]) => (
                <div key={key} className="px-2 py-3">
                  <dd className="font-display text-xl font-bold text-fg" data-testid={`profile-${key}`}>
                    {n.toLocaleString('en-US')}
                  </dd>
                  <dt className="text-xs uppercase tracking-widest text-muted">{label}</dt>
                </div>
              ))}
            </dl>
          </section>

          <Slot name="WalletBasicsCard" />
          <Slot name="CreatorEarningsCard" />

          <div className="grid gap-6 lg:grid-cols-2">
            <Section title="Achievements" testId="achievements">
              <ul className="grid gap-2 sm:grid-cols-2">
                {view.achievements.map((a) => (
                  <li
                    key={a.id}
                    data-testid="achievement"
                    data-earned={a.earned}
                    className={`rounded-lg border p-3 ${a.earned ? 'border-primary/60 bg-primary/10' : 'border-line opacity-70'}`}
                  >
                    <p className="flex items-center justify-between gap-2 font-semibold text-fg">
                      {a.title}
                      <span className={`text-xs ${a.earned ? 'text-primary' : 'text-muted'}`}>
                        {a.earned ? 'Earned' : `${a.progress.current}/${a.progress.target}`}
                      </span>
                    </p>
                    <p className="text-xs text-muted">{a.description}</p>
                  </li>
                ))}
              </ul>
            </Section>

            <Section title="Recent Tracks" testId="recent-tracks">
              {view.recent.length === 0 ? (
                <p className="text-sm text-muted">
                  No listens yet. Play a track for {qualifySeconds} seconds to earn CUBE —{' '}
                  <Link to="/app/library" className="text-primary underline">
                    open the Library
                  </Link>
                  .
                </p>
              ) : (
                <ul className="divide-y divide-line/60">
                  {view.recent.map((t) => (
                    <li key={t.key} className="flex items-center justify-between gap-3 py-2" data-testid="recent-track">
                      <div className="min-w-0">
                        <p className="truncate text-fg">{t.title}</p>
                        <p className="truncate text-xs text-muted">{[t.artist, relativeTime(t.listenedAt)].filter(Boolean).join(' · ')}</p>
                      </div>
                      {t.song && (
                        <button
                          type="button"
                          onClick={() => playSong(t.song!)}
                          aria-label={`Play ${t.title}`}
                          className="rounded-full border border-primary/60 p-2 text-primary hover:bg-primary/10"
                        >
                          <Icon name="play" size={14} />
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Section>
          </div>

          <Section title="Popular Playlists" testId="popular-playlists">
            {view.playlists.length === 0 ? (
              <p className="text-sm text-muted">
                No playlists yet.{' '}
                <Link to="/app/playlists" className="text-primary underline">
                  Create one
                </Link>
                .
              </p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {view.playlists.map((p) => (
                  <li key={p.id} className="rounded-lg border border-line bg-bg/60 p-3" data-testid="profile-playlist">
                    <p className="font-semibold text-fg">{p.name}</p>
                    <p className="text-xs text-muted">
                      {p.count} {p.count === 1 ? 'track' : 'tracks'}
                    </p>
                    {p.firstTitles.length > 0 && <p className="mt-1 truncate text-xs text-fg/70">{p.firstTitles.join(' · ')}</p>}
                  </li>
                ))}
              </ul>
            )}
          </Section>

          {!preview && <Slot name="StudioProjectsSection" />}
        </>
      )}
    </div>
  )
}
