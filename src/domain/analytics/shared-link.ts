import type { ShareOpen, ShareVisit } from '../../backend/sharing.ts'
import { notify } from '../../lib/notify.ts'

// A shared address carries its link's token (`/song/neon-drift?s=<token>`). The sharer is paid for
// a visit the app's own page proves: on opening, the page asks the server for a visit (a nonce it
// hands only to the app's origin), and once the page has really been shown (visible; the app's
// CSP, frame-ancestors 'none', keeps it out of other sites' frames) for the time the server asks,
// it redeems that visit (open_share), once. The visitor is only told when the token is not valid. The page works either way.

/** The query parameter that carries a shared link's token. */
export const SHARE_TOKEN_PARAM = 's'

export interface ShareVisitCalls {
  begin(token: string): Promise<ShareVisit>
  open(token: string, nonce: string): Promise<ShareOpen>
}

/** What the page tells about itself: whether it is shown now, and when that changes. */
export interface PageShown {
  visible(): boolean
  /** Calls back on every change of visibility; returns the unsubscribe. */
  onChange(callback: () => void): () => void
}

const documentShown: PageShown = {
  visible: () => document.visibilityState === 'visible',
  onChange(callback) {
    document.addEventListener('visibilitychange', callback)
    return () => document.removeEventListener('visibilitychange', callback)
  },
}

/**
 * Resolves once the page has been visible for `ms` in all (time in a background tab does not
 * count), or false when `deadlineMs` passes first.
 */
export function shownFor(ms: number, deadlineMs: number, page: PageShown = documentShown): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0
    let since = page.visible() ? performance.now() : undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const done = (shown: boolean) => {
      stop()
      clearTimeout(timer)
      clearTimeout(deadline)
      resolve(shown)
    }
    const arm = () => {
      clearTimeout(timer)
      if (since !== undefined) timer = setTimeout(() => done(true), Math.max(0, ms - seen))
    }
    const stop = page.onChange(() => {
      if (page.visible() && since === undefined) since = performance.now()
      else if (!page.visible() && since !== undefined) {
        seen += performance.now() - since
        since = undefined
      }
      arm()
    })
    const deadline = setTimeout(() => done(false), deadlineMs)
    arm()
  })
}

const opened = new Set<string>()

/** Reports one visit of a shared link (once per token per page load), after the page was shown. */
export async function openSharedLink(token: string, calls?: ShareVisitCalls, page: PageShown = documentShown): Promise<ShareOpen | null> {
  if (opened.has(token)) return null
  opened.add(token)
  try {
    // Loaded only when a link is opened: the backend client (supabase-js, 51 KB gzip) stays out of
    // the landing page's first load, which every shared address passes through.
    const { begin, open } = calls ?? (await import('../../backend/sharing.ts')).shareVisitCalls
    const visit = await begin(token)
    // Redeemed a little after the server's minimum, so the server's clock agrees the time has passed.
    if (!(await shownFor(visit.redeem_after_ms + 250, visit.expires_in_ms, page))) return null
    return await open(token, visit.nonce)
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
