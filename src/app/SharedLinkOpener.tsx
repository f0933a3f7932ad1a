import { useEffect, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { SHARE_TOKEN_PARAM, openSharedLink } from '../domain/analytics/shared-link.ts'
import { useOptionalBackend } from '../domain/session/backend-context.ts'

/**
 * Around the public pages a shared link names (/song/…, /user/…, /track/…): a `?s=<token>` is
 * reported to the server once (it pays the sharer when the rules allow) and then removed from the
 * address bar, so a reload, a bookmark or a copy of the address does not carry it on.
 */
export function SharedLinkOpener({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams()
  const token = params.get(SHARE_TOKEN_PARAM)
  // The app renders this outside the pages' server state, so the visit calls load on the first
  // shared link (openSharedLink); an injected backend (a test's fake) is used when there is one.
  const visitCalls = useOptionalBackend()?.sharing.shareVisitCalls
  useEffect(() => {
    if (!token) return
    void openSharedLink(token, visitCalls)
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete(SHARE_TOKEN_PARAM)
        return next
      },
      { replace: true },
    )
  }, [token, setParams, visitCalls])
  return children
}
