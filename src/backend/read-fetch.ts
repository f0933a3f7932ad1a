/**
 * The fetch the Supabase client uses for its REST reads. Two things the browser would otherwise
 * get wrong on every page load:
 * - postgrest-js never reads the (empty) body of a HEAD count response, so Chromium records the
 *   request as cancelled (net::ERR_ABORTED in DevTools). Reading it to the end closes it cleanly.
 * - Components that mount together ask for the same rows at the same moment; identical reads
 *   (same method, URL and headers) while one is in flight share its response instead of each
 *   going to the server.
 */
type Fetch = typeof fetch

const headerKey = (headers: HeadersInit | undefined): string => {
  const entries = [...new Headers(headers).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(entries)
}

interface Settled {
  status: number
  statusText: string
  headers: Headers
  body: ArrayBuffer | null
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])
const toResponse = (s: Settled): Response =>
  new Response(NULL_BODY_STATUS.has(s.status) ? null : s.body, { status: s.status, statusText: s.statusText, headers: s.headers })

export function createReadFetch(inner: Fetch = (...args) => fetch(...args)): Fetch {
  const inFlight = new Map<string, Promise<Settled>>()
  return async (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    // Only plain reads are shared: a write must reach the server once per call, and a caller with its own
    // AbortSignal must be able to cancel just its request.
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      input instanceof Request ||
      init?.signal ||
      init?.body ||
      !String(input).includes('/rest/v1/')
    )
      return inner(input, init)
    const key = `${method} ${String(input)} ${headerKey(init?.headers)}`
    let pending = inFlight.get(key)
    if (!pending) {
      pending = inner(input, init)
        .then(
          async (res): Promise<Settled> => ({
            status: res.status,
            statusText: res.statusText,
            headers: res.headers,
            body: method === 'HEAD' ? (await res.arrayBuffer(), null) : await res.arrayBuffer(),
          }),
        )
        .finally(() => inFlight.delete(key))
      inFlight.set(key, pending)
    }
    return toResponse(await pending)
  }
}
