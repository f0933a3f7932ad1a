import { useEffect, useState } from 'react'
import { NavLink, Navigate, Route, Routes } from 'react-router-dom'
import type { SharePlatform, ShareRules } from '../../backend/sharing.ts'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { facebookIntent, sharePath, twitterIntent } from './share-links.ts'
import { useShare, useShareOverview, useShareableSongs, type ShareApi, type ShareItem } from './useSharing.ts'
import { AnalyticsTab } from './AnalyticsTab.tsx'
import { QrPanel } from './QrPanel.tsx'

function ShareTargets({ item, api, rules }: { item: ShareItem; api: ShareApi; rules: ShareRules | null }) {
  const link = `${window.location.origin}${sharePath(item.type, item.id)}`
  const [copied, setCopied] = useState(false)
  const [qrOpen, setQrOpen] = useState(false)

  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(t)
  }, [copied])

  const amount = (p: SharePlatform) => (rules ? ` +${rules.amounts[p]}` : '')
  const intent = (platform: 'twitter' | 'facebook') => {
    const url = platform === 'twitter' ? twitterIntent(link, `Listening to ${item.title} on CUBE Music`) : facebookIntent(link)
    window.open(url, '_blank', 'noopener,noreferrer')
    api.share(item, platform)
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link)
      setCopied(true)
      api.share(item, 'copy_link')
    } catch {
      notify.error('Could not copy the link', { description: 'Select the link and copy it by hand.' })
    }
  }
  const openQr = () => {
    // Opening the QR view counts as a QR share (the server credits it once per item per day).
    if (!qrOpen) api.share(item, 'qr')
    setQrOpen((o) => !o)
  }
  const btn =
    'flex items-center gap-1.5 rounded-md border border-line px-3 py-1.5 text-sm font-semibold hover:border-primary disabled:opacity-50'

  return (
    <section aria-label={`Share ${item.title}`} className="panel flex flex-col gap-3 p-4" data-testid="share-targets">
      <h2 className="font-bold">Share “{item.title}”</h2>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={link}
          aria-label="Share link"
          data-testid="share-link"
          className="min-w-0 flex-1 rounded-md border border-line bg-bg/60 px-2 py-1 font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={btn} disabled={api.locked('twitter')} onClick={() => intent('twitter')}>
          Twitter<span className="text-accent">{amount('twitter')}</span>
        </button>
        <button type="button" className={btn} disabled={api.locked('facebook')} onClick={() => intent('facebook')}>
          Facebook<span className="text-accent">{amount('facebook')}</span>
        </button>
        <button type="button" className={btn} disabled={api.locked('copy_link')} onClick={() => void copy()}>
          {copied ? 'Copied!' : 'Copy link'}
          <span className="text-accent">{amount('copy_link')}</span>
        </button>
        <button type="button" className={btn} aria-expanded={qrOpen} onClick={openQr}>
          QR code<span className="text-accent">{amount('qr')}</span>
        </button>
      </div>
      {qrOpen && <QrPanel link={link} name={item.id} />}
    </section>
  )
}

function TracksTab({ api, rules }: { api: ShareApi; rules: ShareRules | null }) {
  const songs = useShareableSongs()
  const [selected, setSelected] = useState<string | null>(null)
  if (!songs) return <p className="text-muted">Loading tracks…</p>
  const song = songs.find((s) => s.slug === selected) ?? songs[0]
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ul className="flex flex-col gap-2" aria-label="Tracks to share">
        {songs.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              aria-pressed={s.id === song?.id}
              onClick={() => setSelected(s.slug)}
              className={
                `w-full rounded-md border px-3 py-2 text-left ` + `${s.id === song?.id ? 'border-primary bg-primary/10' : 'border-line'}`
              }
            >
              <span className="block truncate font-semibold">{s.title}</span>
              <span className="block truncate text-sm text-muted">{s.artist}</span>
            </button>
          </li>
        ))}
      </ul>
      {song && <ShareTargets key={song.id} item={{ type: 'song', id: song.slug, title: song.title }} api={api} rules={rules} />}
    </div>
  )
}

function ProfileTab({ api, rules, username }: { api: ShareApi; rules: ShareRules | null; username: string | null }) {
  if (!username) return <p className="text-muted">Loading your profile…</p>
  return <ShareTargets item={{ type: 'user', id: username, title: `@${username}` }} api={api} rules={rules} />
}

export default function SharingPage() {
  const status = useSessionStore((s) => s.status)
  const user = useSessionStore((s) => s.user)
  const { rules, analytics, counts, username, refresh } = useShareOverview()
  const api = useShare(refresh)

  const shareNow = async () => {
    if (!username) return
    const item: ShareItem = { type: 'user', id: username, title: `@${username}` }
    const url = `${window.location.origin}${sharePath('user', username)}`
    try {
      if (typeof navigator.share === 'function') await navigator.share({ title: 'CUBE Music', url })
      else await navigator.clipboard.writeText(url)
    } catch {
      // The user closed the share sheet: the share still happened as far as the app can tell.
    }
    api.share(item, 'share_now')
  }

  const tab = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 py-1.5 text-sm font-semibold ${isActive ? 'bg-primary text-bg' : 'text-muted hover:text-fg'}`

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold neon-text">Share &amp; Earn</h1>
        {user && (
          <button
            type="button"
            onClick={() => void shareNow()}
            disabled={!username || api.locked('share_now')}
            className="flex items-center gap-2 rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-50"
          >
            <Icon name="share" size={16} /> Share Now
          </button>
        )}
      </header>
      <section aria-label="Token rewards" className="panel flex flex-col gap-1 border-accent/50 p-4" data-testid="share-rewards-banner">
        <p className="font-semibold text-accent">Earn CUBE for every share</p>
        <p className="text-sm text-muted">
          {rules
            ? `Twitter +${rules.amounts.twitter} · Facebook +${rules.amounts.facebook} · Copy link ` +
              `+${rules.amounts.copy_link} · QR +${rules.amounts.qr} · Share Now +${rules.amounts.share_now} CUBE — once per ` +
              `item and platform per day, up to ${rules.daily_cap} shares a day.`
            : '...'}
        </p>
        {api.mining && (
          <p role="status" className="text-sm text-primary" data-testid="share-mining">
            Mining CUBE…
          </p>
        )}
        {counts && (
          <p className="text-xs text-muted" data-testid="share-counts">
            Your shares: Twitter {counts.twitter} · Facebook {counts.facebook} · Copy {counts.copy} · QR {counts.qr}
          </p>
        )}
      </section>
      {status !== 'signed-in' ? (
        <section className="panel flex flex-col items-start gap-2 p-4">
          <p>{status === 'loading' ? 'Checking your session…' : 'Sign in to share tracks and your profile and earn CUBE.'}</p>
          {status === 'signed-out' && (
            <button
              type="button"
              onClick={() => useAuthModalStore.getState().open('login')}
              className="rounded-md border border-primary px-3 py-1.5 font-semibold text-primary"
            >
              Sign in
            </button>
          )}
        </section>
      ) : (
        <>
          <nav aria-label="Sharing sections" className="flex gap-2">
            <NavLink to="/app/sharing/tracks" className={tab}>
              Tracks
            </NavLink>
            <NavLink to="/app/sharing/profile" className={tab}>
              Profile
            </NavLink>
            <NavLink to="/app/sharing/analytics" className={tab}>
              Analytics
            </NavLink>
          </nav>
          <Routes>
            <Route index element={<Navigate to="/app/sharing/tracks" replace />} />
            <Route path="tracks" element={<TracksTab api={api} rules={rules} />} />
            <Route path="profile" element={<ProfileTab api={api} rules={rules} username={username} />} />
            <Route path="analytics" element={<AnalyticsTab analytics={analytics} />} />
            <Route path="*" element={<Navigate to="/app/sharing/tracks" replace />} />
          </Routes>
        </>
      )}
    </div>
  )
}
