// server-clock: the server's time now (GET /functions/v1/server-clock → { now: <ms since 1970> }),
// what the studio's "Play together" measures each collaborator's clock against, so they start
// the transport at one instant. Public: a time is no secret, and a signed-out viewer needs it too.
// Never cached: a stored answer would be a stale time, and the round trip is what is measured.
import { corsHeaders, json, preflight, type EdgeHandler } from '../_shared/http.ts'

export function serverClock(deps: { now?: () => number } = {}): EdgeHandler {
  const now = deps.now ?? (() => Date.now())
  return async (req) => {
    if (req.method === 'OPTIONS') return preflight()
    if (req.method !== 'GET') return json({ error: 'Method not allowed: use GET' }, 405)
    return new Response(JSON.stringify({ now: now() }), {
      status: 200,
      headers: { ...corsHeaders, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    })
  }
}
