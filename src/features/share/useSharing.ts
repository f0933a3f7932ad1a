import { useCallback, useEffect, useState } from 'react'
import type { ShareAnalytics, ShareLink, SharePlatform, ShareRules, ShareableSong } from '../../backend/sharing.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { cacheShareCounts, cachedShareCounts, type ShareCounts } from './share-links.ts'
import { announceShareCredit, startShareLinks } from '../../domain/economy/share-link-sync.ts'
import { linksOf, sortedLinks, useShareLinksStore } from '../../domain/economy/share-links-store.ts'
import { shareBusyKey, type ShareItem } from '../../domain/economy/share-item.ts'
import { useShareActions } from '../../domain/economy/useShareActions.ts'

export { PLATFORM_LABEL } from './share-links.ts'

export type { ShareItem }

/**
 * Sharing: `share` asks the server for the item's link on that platform (shareItem) and calls
 * `onAnswered` when it made one. The same platform is busy until the answer is in.
 */
export function useShare(onAnswered: () => void) {
  const busy = useShareLinksStore((s) => s.busy)
  const actions = useShareActions()
  const share = useCallback(
    async (item: ShareItem, platform: SharePlatform): Promise<ShareLink | null> => {
      const link = await actions.share(item, platform)
      if (link) onAnswered()
      return link
    },
    [onAnswered, actions],
  )
  const locked = (item: ShareItem | null, platform: SharePlatform) => (item ? Boolean(busy[shareBusyKey(item, platform)]) : false)
  return { share, locked, sharing: Object.keys(busy).length > 0 }
}

export type ShareApi = ReturnType<typeof useShare>

/** The signed-in user's links, kept live (pending → credited); the app starts this too (start-services.ts). */
export function useShareLinkSync() {
  const { sharing } = useBackend()
  useEffect(
    () =>
      startShareLinks({ fetch: () => sharing.fetchShareLinks(), subscribe: sharing.subscribeShareLinks, onCredited: announceShareCredit }),
    [sharing],
  )
}

/** This item's links, newest first. */
export function useItemLinks(item: ShareItem): ShareLink[] {
  const links = useShareLinksStore((s) => s.links)
  return linksOf(links, item.type, item.altId ? [item.id, item.altId] : [item.id])
}

/** All the user's links, newest first. */
export function useRecentLinks(limit = 10): ShareLink[] {
  const links = useShareLinksStore((s) => s.links)
  return sortedLinks(links).slice(0, limit)
}

/** The tracks the user may share (null while loading). */
export function useShareableSongs() {
  const { fetchShareableSongs } = useBackend().sharing
  const [songs, setSongs] = useState<ShareableSong[] | null>(null)
  useEffect(() => {
    fetchShareableSongs().then(setSongs, (e: unknown) => notify.error('Could not load the tracks', { description: errorMessage(e) }))
  }, [fetchShareableSongs])
  return songs
}

/**
 * What the sharing page shows around the buttons: the server's reward rules, the user's share
 * analytics and counts (cached for the next visit), and their username; `refresh` reads the
 * analytics again (after each share's answer).
 */
export function useShareOverview() {
  const { sharing, profile } = useBackend()
  const user = useSessionStore((s) => s.user)
  const [rules, setRules] = useState<ShareRules | null>(null)
  const [analytics, setAnalytics] = useState<ShareAnalytics | null>(null)
  const [counts, setCounts] = useState<ShareCounts | null>(() => cachedShareCounts())
  const [username, setUsername] = useState<string | null>(null)

  useEffect(() => {
    sharing.fetchShareRules().then(setRules, (e: unknown) => console.error('[share] rules', e))
  }, [sharing])
  const refresh = useCallback(() => {
    if (!user) return
    sharing.fetchShareAnalytics().then(
      (a) => {
        setAnalytics(a)
        setCounts(cacheShareCounts(a.by_platform))
      },
      (e: unknown) => console.error('[share] analytics', e),
    )
  }, [user, sharing])
  useEffect(refresh, [refresh])
  useEffect(() => {
    if (user)
      profile.fetchProfile(user.id).then(
        (p) => setUsername(p?.username ?? null),
        (e: unknown) => console.error('[share] profile', e),
      )
  }, [user, profile])
  return { rules, analytics, counts, username, refresh }
}
