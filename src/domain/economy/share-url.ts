import type { ShareItemType } from '../../backend/sharing.ts'
import { SHARE_TOKEN_PARAM } from '../analytics/shared-link.ts'

/** The in-app page a shared item resolves to: /user/{username}, /song/{slug}, /track/{id}. */
export function sharePath(itemType: ShareItemType, id: string): string {
  const prefix = itemType === 'user' ? '/user/' : itemType === 'song' ? '/song/' : '/track/'
  return prefix + encodeURIComponent(id)
}

/** The address to share: the item's page with the link's token, `https://…/song/neon-drift?s=<token>`. */
export const sharedUrl = (origin: string, itemType: ShareItemType, id: string, token: string): string =>
  `${origin}${sharePath(itemType, id)}?${SHARE_TOKEN_PARAM}=${encodeURIComponent(token)}`
