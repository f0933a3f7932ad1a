import type { IncomingMessage, ServerResponse } from 'node:http'

/** One API request as a service's handlers see it. */
export interface ApiRequest {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** The prefix it came in under, e.g. 'functions/v1'. */
  prefix: string
  /** The path after the prefix as URL parsing normalised it; '/' when empty. */
  path: string
  /** The path after the prefix exactly as sent (Storage: object names must not be normalised). */
  rawPath: string
}

/**
 * A Supabase service the local backend stands in for, as the route table (../routes.ts) lists it:
 * the URL prefixes it answers under and the handler that routes within it.
 */
export interface Service {
  /** Without slashes at the ends: 'auth/v1'. */
  prefixes: readonly string[]
  /**
   * Matched on the raw request path, before URL parsing resolves `..`: a path such as
   * /storage/v1/object/b/../../../rest/v1/x must reach this service (and be refused), not REST.
   */
  rawPath?: boolean
  /** Reads large bodies itself under its own time limits: exempt from the 30 s body deadline. */
  streamsBodies?: boolean
  handle(request: ApiRequest): Promise<void>
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** Finds the service a request is for, and the path after its prefix; undefined: not an API route. */
export function serviceRouter(services: readonly Service[]) {
  const prefixes = services.flatMap((service) =>
    service.prefixes.map((prefix) => ({
      service,
      prefix,
      parsed: new RegExp(`^/${escape(prefix)}(/.*)?$`),
      raw: new RegExp(`^/${escape(prefix)}(?=[/?#]|$)(/[^?#]*)?`),
    })),
  )
  return (req: IncomingMessage, url: URL): (Omit<ApiRequest, 'req' | 'res' | 'url'> & { service: Service }) | undefined => {
    const rawUrl = req.url ?? ''
    const parsedPath = (p: (typeof prefixes)[number]) => p.parsed.exec(url.pathname)?.[1] ?? '/'
    for (const p of prefixes) {
      if (!p.service.rawPath) continue
      const raw = p.raw.exec(rawUrl)
      if (raw) return { service: p.service, prefix: p.prefix, path: parsedPath(p), rawPath: raw[1] ?? '/' }
    }
    for (const p of prefixes) {
      const parsed = p.parsed.exec(url.pathname)
      if (!parsed) continue
      const rawPath = p.service.rawPath ? (p.raw.exec(rawUrl)?.[1] ?? '/') : (parsed[1] ?? '/')
      return { service: p.service, prefix: p.prefix, path: parsed[1] ?? '/', rawPath }
    }
    return undefined
  }
}
