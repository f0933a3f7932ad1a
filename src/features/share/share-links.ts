import type { ShareLink } from '../../backend/sharing.ts'

export { PLATFORM_LABEL } from '../../domain/economy/share-links-store.ts'
// Now Playing shares a song too: the address's form lives in the domain, written once.
export { sharePath, sharedUrl } from '../../domain/economy/share-url.ts'

// The activity list names the same reasons: the domain holds them once.
import { OPEN_NOT_PAID } from '../../domain/economy/share-open-reasons.ts'

const clock = (at: string): string => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/**
 * What a link's state means, in words: pending until someone else opens it, then credited; and what
 * the last open did when it paid nothing, so the sharer is never left guessing.
 */
export const linkStatusText = (
  link: Pick<ShareLink, 'status' | 'amount'> & Partial<Pick<ShareLink, 'last_open_reason' | 'last_open_at'>>,
): string => {
  const base =
    link.status === 'credited' ? `Credited +${link.amount} CUBE` : `Pending — pays ${link.amount} CUBE when someone opens your link`
  const why = link.last_open_reason ? OPEN_NOT_PAID[link.last_open_reason] : undefined
  if (!why) return base
  const when = link.last_open_at ? ` at ${clock(link.last_open_at)}` : ''
  return link.status === 'credited' ? `${base} · opened again${when}: ${why}` : `Opened${when}, not paid: ${why}`
}

/** The rule, in plain words, where it bites (under the share buttons). */
export const shareRuleText = (dailyCap: number | null): string =>
  'A share pays when someone else opens your link: another person, on another device or network — your own clicks ' +
  `never count. Each link pays once a day, and each person pays you once a day${dailyCap ? `, up to ${dailyCap} paid shares a day` : ''}.`

export const twitterIntent = (url: string, text: string): string =>
  `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`

export const facebookIntent = (url: string): string => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`

/** The storage key the reference used; now only a cache of the server's per-platform counts. */
export const SHARE_COUNT_KEY = 'shareCount'

export interface ShareCounts {
  twitter: number
  facebook: number
  copy: number
  qr: number
}

export function cacheShareCounts(byPlatform: Partial<Record<string, number>>): ShareCounts {
  const counts: ShareCounts = {
    twitter: byPlatform.twitter ?? 0,
    facebook: byPlatform.facebook ?? 0,
    copy: byPlatform.copy_link ?? 0,
    qr: byPlatform.qr ?? 0,
  }
  try {
    localStorage.setItem(SHARE_COUNT_KEY, JSON.stringify(counts))
  } catch {
    // A full or blocked storage only loses the cache.
  }
  return counts
}

export function cachedShareCounts(): ShareCounts | null {
  try {
    const v = JSON.parse(localStorage.getItem(SHARE_COUNT_KEY) ?? 'null') as Partial<ShareCounts> | null
    if (!v || typeof v !== 'object') return null
    return { twitter: Number(v.twitter) || 0, facebook: Number(v.facebook) || 0, copy: Number(v.copy) || 0, qr: Number(v.qr) || 0 }
  } catch {
    return null
  }
}

/** Analytics bars: the reference's scales (200 visits, 500 plays, 100 followers), capped at full. */
export const STAT_SCALES = { visits: 200, plays: 500, followers: 100 } as const
export const barPercent = (value: number, scale: number): number => Math.min(100, Math.max(0, (value / scale) * 100))
