import { useEffect, useState } from 'react'
import { NavLink, Navigate, Route, Routes } from 'react-router-dom'
import type { SharePlatform, ShareRules } from '../../backend/sharing.ts'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { facebookIntent, sharePath, sharedUrl, shareRuleText, twitterIntent } from './share-links.ts'
import {
  useItemLinks,
  useRecentLinks,
  useShare,
  useShareLinkSync,
  useShareOverview,
  useShareableSongs,
  type ShareApi,
  type ShareItem,
} from './useSharing.ts'
import { AnalyticsTab } from './AnalyticsTab.tsx'
import { QrPanel } from './QrPanel.tsx'
import { ShareLinkList } from './ShareLinkList.tsx'

function ShareTargets({ item, api, rules }: { item: ShareItem; api: ShareApi; rules: ShareRules | null }) {
  const origin = window.location.origin
  const links = useItemLinks(item)
  const urlOf = (token: string) => sharedUrl(origin, item.type, item.id, token)
  // The newest link of this item (what was last shared), else the page's own address.
  const link = links[0] ? urlOf(links[0].token) : `${origin}${sharePath(item.type, item.id)}`
  const qrLink = links.find((l) => l.platform === 'qr')
  const [copied, setCopied] = useState(false)
  const [qrOpen, setQrOpen] = useState(false)

  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(t)
  }, [copied])

  const amount = (p: SharePlatform) => (rules ? ` +${rules.amounts[p]}` : '')
  const intent = async (platform: 'twitter' | 'facebook') => {
    const shared = await api.share(item, platform)
    if (!shared) return
    const url = urlOf(shared.token)
    window.open(
      platform === 'twitter' ? twitterIntent(url, `Listening to ${item.title} on CUBE Music`) : facebookIntent(url),
      '_blank',
      'noopener,noreferrer',
    )
  }
  const copy = async () => {
    const shared = await api.share(item, 'copy_link')
    if (!shared) return
    try {
      await navigator.clipboard.writeText(urlOf(shared.token))
      setCopied(true)
    } catch {
      notify.error('Could not copy the link', { description: 'Select the link and copy it by hand.' })
    }
  }
  const openQr = async () => {
    if (qrOpen) return setQrOpen(false)
    // The QR code carries the QR link's own token.
    if (await api.share(item, 'qr')) setQrOpen(true)
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
        <button type="button" className={btn} disabled={api.locked(item, 'twitter')} onClick={() => void intent('twitter')}>
          Twitter<span className="text-accent">{amount('twitter')}</span>
        </button>
        <button type="button" className={btn} disabled={api.locked(item, 'facebook')} onClick={() => void intent('facebook')}>
          Facebook<span className="text-accent">{amount('facebook')}</span>
        </button>
        <button type="button" className={btn} disabled={api.locked(item, 'copy_link')} onClick={() => void copy()}>
          {copied ? 'Copied!' : 'Copy link'}
          <span className="text-accent">{amount('copy_link')}</span>
        </button>
        <button type="button" className={btn} aria-expanded={qrOpen} disabled={api.locked(item, 'qr')} onClick={() => void openQr()}>
          QR code<span className="text-accent">{amount('qr')}</span>
        </button>
      </div>
      <p className="text-xs text-muted" data-testid="share-rule">
        {shareRuleText(rules?.daily_cap ?? null)}
      </p>
      <ShareLinkList links={links} label={`Your links for ${item.title}`} />
      {qrOpen && qrLink && <QrPanel link={urlOf(qrLink.token)} name={item.id} />}
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
      {song && (
        <ShareTargets key={song.id} item={{ type: 'song', id: song.slug, altId: song.id, title: song.title }} api={api} rules={rules} />
      )}
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
  useShareLinkSync()
  const recent = useRecentLinks()
  const profileItem: ShareItem | null = username ? { type: 'user', id: username, title: `@${username}` } : null

  const shareNow = async () => {
    if (!profileItem) return
    const shared = await api.share(profileItem, 'share_now')
    if (!shared) return
    const url = sharedUrl(window.location.origin, 'user', profileItem.id, shared.token)
    try {
      if (typeof navigator.share === 'function') await navigator.share({ title: 'CUBE Music', url })
      else await navigator.clipboard.writeText(url)
    } catch {
      // The user closed the share sheet: the link stays pending until someone opens it.
    }
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
            disabled={!profileItem || api.locked(profileItem, 'share_now')}
            className="flex items-center gap-2 rounded-md bg-primary px-4 py-2 font-semibold text-bg disabled:opacity-50"
          >
            <Icon name="share" size={16} /> Share Now
          </button>
        )}
      </header>
      <section aria-label="Token rewards" className="panel flex flex-col gap-1 border-accent/50 p-4" data-testid="share-rewards-banner">
        <p className="font-semibold text-accent">Earn CUBE when people open what you share</p>
        <p className="text-sm text-muted">
          {rules
            ? `Twitter +${rules.amounts.twitter} · Facebook +${rules.amounts.facebook} · Copy link ` +
              `+${rules.amounts.copy_link} · QR +${rules.amounts.qr} · Share Now +${rules.amounts.share_now} CUBE. ` +
              shareRuleText(rules.daily_cap)
            : '...'}
        </p>
        {api.sharing && (
          <p role="status" className="text-sm text-primary" data-testid="share-mining">
            Making your link…
          </p>
        )}
        {counts && (
          <p className="text-xs text-muted" data-testid="share-counts">
            Your paid shares: Twitter {counts.twitter} · Facebook {counts.facebook} · Copy {counts.copy} · QR {counts.qr}
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
          {recent.length > 0 && (
            <section aria-label="Your recent shares" className="panel flex flex-col gap-2 p-4" data-testid="share-recent">
              <h2 className="font-bold">Your recent shares</h2>
              <ShareLinkList links={recent} label="Your recent shares" describe={(l) => `${l.item_type} ${l.item_id}`} />
            </section>
          )}
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
