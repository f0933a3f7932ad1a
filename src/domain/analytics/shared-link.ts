import type { ShareOpen } from '../../backend/sharing.ts'
import { notify } from '../../lib/notify.ts'

// A shared address carries its link's token (`/song/neon-drift?s=<token>`). Opening it tells the
// server, which pays the sharer when the opener is someone else on another client (open_share);
// the visitor is only told when the token is not valid. The page works either way.

/** The query parameter that carries a shared link's token. */
export const SHARE_TOKEN_PARAM = 's'

const opened = new Set<string>()

/** Reports one opening of a shared link (once per token per page load). */
export async function openSharedLink(token: string, open?: (token: string) => Promise<ShareOpen>): Promise<ShareOpen | null> {
  if (opened.has(token)) return null
  opened.add(token)
  try {
    // Loaded only when a link is opened: the backend client (supabase-js, 51 KB gzip) stays out of
    // the landing page's first load, which every shared address passes through.
    return await (open ?? (await import('../../backend/sharing.ts')).openShareLink)(token)
  } catch (e) {
    const error = e as { message?: string; details?: string }
    if (error.message === 'invalid_share_link')
      notify(error.details || 'This share link is not valid.', {
        id: 'share-link-invalid',
        description: 'The page itself works without it.',
      })
    else console.warn('[share] open', e)
    return null
  }
}
