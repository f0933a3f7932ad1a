import type { LocalServer } from '../../../supabase/local/core/server.ts'
import { api, sql, type TestUser } from './local-backend.ts'

// A shared link is paid only for a visit the app's own page proves (supabase/schemas/sharing.sql):
// the page gets a nonce from share_visit_begin and redeems it with open_share once it has been shown.
// These helpers send what the app's page sends from a browser: the app's Origin (the local server
// serves the app on the API's own origin).

export type ShareOpen = { credited: boolean; reason: string }

/** The headers a browser adds to the app page's own fetch(). */
export const fromAppPage = (server: LocalServer) => ({ Origin: server.url, 'Sec-Fetch-Site': 'same-origin' })

/** share_visit_begin as the shared page calls it: the raw answer. */
export const beginShareVisit = (
  server: LocalServer,
  token: string,
  from: string,
  options: { user?: TestUser; headers?: Record<string, string> } = {},
) =>
  api(server, '/rest/v1/rpc/share_visit_begin', {
    token: options.user?.accessToken,
    body: { p_token: token },
    from,
    headers: options.headers ?? fromAppPage(server),
  })

/** As if the page had been shown for the rules' minimum: the visit's nonce is dated back by that much. */
export const pageShown = (server: LocalServer, nonce: string) =>
  sql(
    server,
    'update public.share_visits set issued_at = issued_at - ' +
      "make_interval(secs => (public.share_visit_rules() ->> 'min_seconds')::int) where nonce = $1",
    [nonce],
  )

/** open_share with a nonce (or none), as a page would call it: the raw answer. */
export const redeemShareVisit = (
  server: LocalServer,
  token: string,
  nonce: string | undefined,
  from: string,
  options: { user?: TestUser; headers?: Record<string, string> } = {},
) =>
  api(server, '/rest/v1/rpc/open_share', {
    token: options.user?.accessToken,
    body: nonce === undefined ? { p_token: token } : { p_token: token, p_nonce: nonce },
    from,
    headers: options.headers ?? fromAppPage(server),
  })

/** A visitor opens the shared page from `from` and stays on it: begin, shown, redeemed. */
export async function visitSharedPage(server: LocalServer, token: string, from: string, user?: TestUser): Promise<ShareOpen> {
  const begun = await beginShareVisit(server, token, from, { user })
  if (begun.status !== 200) throw new Error(`share_visit_begin answered ${begun.status}: ${begun.text}`)
  const nonce = (begun.json as { nonce: string }).nonce
  await pageShown(server, nonce)
  const opened = await redeemShareVisit(server, token, nonce, from, { user })
  if (opened.status !== 200) throw new Error(`open_share answered ${opened.status}: ${opened.text}`)
  return opened.json as ShareOpen
}
