import { createShareLink, type ShareItemType, type ShareLink, type SharePlatform } from '../../backend/sharing.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { sharePath, sharedUrl } from './share-url.ts'
import { useSessionStore } from '../session/session-store.ts'
import { useShareLinksStore } from './share-links-store.ts'

// Every share button of the app (the Sharing page, a song's page, the profile, Now Playing, the
// generator) makes its link here, so each copied address carries a token the server can credit
// when someone else opens it; a plain address would pay nothing and say so nowhere.

export interface ShareItem {
  type: ShareItemType
  /** What the address names: a username, a song's slug, a recipe id. */
  id: string
  /** The other name the server may keep it under (a song's id). */
  altId?: string
  title: string
}

export { sharePath, sharedUrl }

export const shareBusyKey = (item: ShareItem, platform: SharePlatform): string => `${item.type}:${item.id}:${platform}`

export interface ShareDeps {
  create: (itemType: ShareItemType, itemId: string, platform: SharePlatform) => Promise<ShareLink>
}

const DEFAULT_DEPS: ShareDeps = { create: createShareLink }

/**
 * Asks the server for the item's link on that platform (pending: it pays only when someone else
 * opens it) and resolves with it, or null when the server refused (the user is told why) or the
 * same platform's request is still on its way.
 */
export async function shareItem(item: ShareItem, platform: SharePlatform, deps: ShareDeps = DEFAULT_DEPS): Promise<ShareLink | null> {
  const key = shareBusyKey(item, platform)
  const store = useShareLinksStore.getState()
  if (store.busy[key]) return null
  store.setBusy(key, true)
  try {
    const link = await deps.create(item.type, item.id, platform)
    useShareLinksStore.getState().upsert(link)
    return link
  } catch (e) {
    notify.error('Could not make your share link', { id: 'share-link', description: errorMessage(e) })
    return null
  } finally {
    useShareLinksStore.getState().setBusy(key, false)
  }
}

/** What was copied; `amount` is what the link pays when someone else opens it (none for a visitor's plain address). */
export type CopiedLink = { url: string; amount: number | null }

/**
 * "Copy link" anywhere: for a signed-in user, the item's copy_link link with its token (credited
 * when someone else opens it); for a visitor, the plain address (nothing to credit). When the
 * server refuses to make a link (the user is told why), the plain address is still copied, as the
 * page itself works without a token. Writes it to the clipboard and says which of the two was
 * copied; when the clipboard is refused, shows the address to copy by hand. Resolves with what was
 * copied, or null while the same request is still on its way.
 */
export async function copyShareLink(
  item: ShareItem,
  clipboard: (text: string) => Promise<void> = (text) => navigator.clipboard.writeText(text),
  deps: ShareDeps = DEFAULT_DEPS,
): Promise<CopiedLink | null> {
  const origin = window.location.origin
  let copied: CopiedLink = { url: `${origin}${sharePath(item.type, item.id)}`, amount: null }
  const signedIn = Boolean(useSessionStore.getState().user)
  if (signedIn) {
    if (useShareLinksStore.getState().busy[shareBusyKey(item, 'copy_link')]) return null
    const link = await shareItem(item, 'copy_link', deps)
    if (link) copied = { url: sharedUrl(origin, item.type, item.id, link.token), amount: link.amount }
  }
  try {
    await clipboard(copied.url)
  } catch {
    notify('Copy this link by hand', { id: 'share-copy', description: copied.url })
    return copied
  }
  notify.success('Link copied', {
    id: 'share-copy',
    description:
      copied.amount !== null
        ? `Pays ${copied.amount} CUBE when someone else opens it.`
        : signedIn
          ? 'The plain address: it pays nothing when opened.'
          : 'Sign in before sharing to earn CUBE when someone else opens your link.',
  })
  return copied
}
