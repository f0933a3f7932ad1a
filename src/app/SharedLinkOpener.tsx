import { useEffect, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { SHARE_TOKEN_PARAM, openSharedLink } from '../domain/analytics/shared-link.ts'

/**
 * Around the public pages a shared link names (/song/…, /user/…, /track/…): a `?s=<token>` is
 * reported to the server once (it pays the sharer when the rules allow) and then removed from the
 * address bar, so a reload, a bookmark or a copy of the address does not carry it on.
 */
export function SharedLinkOpener({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams()
  const token = params.get(SHARE_TOKEN_PARAM)
  useEffect(() => {
    if (!token) return
    void openSharedLink(token)
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete(SHARE_TOKEN_PARAM)
        return next
      },
      { replace: true },
    )
  }, [token, setParams])
  return children
}
