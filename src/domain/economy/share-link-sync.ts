import { fetchShareLinks, subscribeShareLinks, type ShareLink } from '../../backend/sharing.ts'
import { notify } from '../../lib/notify.ts'
import { refreshWallet } from '../session/session-sync.ts'
import { useSessionStore } from '../session/session-store.ts'
import { PLATFORM_LABEL, useShareLinksStore } from './share-links-store.ts'
import { ledgerChanged } from './ledger-cache.ts'

export interface ShareLinkSyncDeps {
  fetch: () => Promise<ShareLink[]>
  subscribe: (userId: string, onChange: (link: ShareLink) => void) => () => void
  /** A link the user saw pending was just paid (someone opened it). */
  onCredited: (link: ShareLink, userId: string) => void
}

/** A link the user saw pending was paid: said on any screen, with the wallet and ledger read again. */
export const announceShareCredit = (link: ShareLink, userId: string) => {
  notify.success(`+${link.amount} CUBE`, {
    id: `share-credit-${link.id}`,
    description: `Someone opened your ${PLATFORM_LABEL[link.platform]} link: share credited`,
  })
  void refreshWallet(userId)
  void ledgerChanged(userId)
}

const DEFAULT_DEPS: ShareLinkSyncDeps = { fetch: () => fetchShareLinks(), subscribe: subscribeShareLinks, onCredited: announceShareCredit }

/**
 * Keeps the share-links store in step with the server for `userId`: the list once, then every
 * change live (Realtime), so a link shows pending and turns credited when a visitor opens it.
 * Returns the stop function.
 */
export function startShareLinkSync(userId: string, deps: ShareLinkSyncDeps = DEFAULT_DEPS): () => void {
  const store = useShareLinksStore
  let stopped = false
  const apply = (link: ShareLink) => {
    if (stopped) return
    const before = store.getState().links[link.id]
    store.getState().upsert(link)
    if (link.status === 'credited' && before?.status === 'pending') deps.onCredited(link, userId)
  }
  const unsubscribe = deps.subscribe(userId, apply)
  deps.fetch().then(
    (links) => {
      if (stopped) return
      // Anything that arrived live meanwhile is at least as new as the list.
      const live = store.getState().links
      const listed = new Set(links.map((l) => l.id))
      store.getState().replaceAll([...links.map((l) => live[l.id] ?? l), ...Object.values(live).filter((l) => !listed.has(l.id))])
    },
    (e: unknown) => console.error('[share] links', e),
  )
  return () => {
    stopped = true
    unsubscribe()
    store.getState().clear()
  }
}

let started = false

/**
 * For the app (start-services.ts; the first caller's `deps` stay): follows the signed-in user, so their links stay live on every
 * screen and a credit is announced wherever they are. Idempotent.
 */
export function startShareLinks(deps: ShareLinkSyncDeps = DEFAULT_DEPS): void {
  if (started) return
  started = true
  let stop: (() => void) | undefined
  let current: string | undefined
  const follow = (userId: string | undefined) => {
    if (userId === current) return
    stop?.()
    stop = undefined
    current = userId
    if (userId) stop = startShareLinkSync(userId, deps)
  }
  follow(useSessionStore.getState().user?.id)
  useSessionStore.subscribe((s) => follow(s.user?.id))
}
