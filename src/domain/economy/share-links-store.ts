import { create } from 'zustand'
import type { ShareItemType, ShareLink, SharePlatform } from '../../backend/sharing.ts'

export const PLATFORM_LABEL: Record<SharePlatform, string> = {
  twitter: 'Twitter',
  facebook: 'Facebook',
  copy_link: 'Copy link',
  qr: 'QR code',
  share_now: 'Share Now',
}

/**
 * The signed-in user's shared links as the server last told us: from the list (fetchShareLinks),
 * from each share's answer, and live from Realtime (pending → credited). Data only;
 * share-link-sync.ts fills it for the whole app, so a credit is announced on any screen.
 */
interface ShareLinksState {
  /** By link id. */
  links: Record<string, ShareLink>
  /** Links whose share request is on its way, by `${itemType}:${itemId}:${platform}`. */
  busy: Record<string, true>
  upsert: (link: ShareLink) => void
  replaceAll: (links: readonly ShareLink[]) => void
  setBusy: (key: string, busy: boolean) => void
  clear: () => void
}

export const useShareLinksStore = create<ShareLinksState>()((set) => ({
  links: {},
  busy: {},
  upsert: (link) => set((s) => ({ links: { ...s.links, [link.id]: link } })),
  replaceAll: (links) => set({ links: Object.fromEntries(links.map((l) => [l.id, l])) }),
  setBusy: (key, busy) =>
    set((s) => {
      const next = { ...s.busy }
      if (busy) next[key] = true
      else delete next[key]
      return { busy: next }
    }),
  clear: () => set({ links: {}, busy: {} }),
}))

/** The newest first. */
export const sortedLinks = (links: Record<string, ShareLink>): ShareLink[] =>
  Object.values(links).sort((a, b) => (a.shared_at < b.shared_at ? 1 : a.shared_at > b.shared_at ? -1 : 0))

/** An item's links: `ids` are the names it may be stored under (a song by its id, shared by its slug). */
export const linksOf = (links: Record<string, ShareLink>, itemType: ShareItemType, ids: readonly string[]): ShareLink[] =>
  sortedLinks(links).filter((l) => l.item_type === itemType && ids.includes(l.item_id))
