import { decodeJwt } from 'jose'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { authRoutes, type AuthOptions } from '../auth/routes.ts'
import type { Database } from './db.ts'
import { HttpError, isSqlError, sendError, sendJson, sqlErrorToHttp } from './errors.ts'
import { runEdgeHandler } from '../functions/fetch-bridge.ts'
import { EDGE_FUNCTIONS } from '../functions/registry.ts'
import { localUserClient } from '../functions/user-client.ts'
import { loadCatalog, type Catalog } from '../rest/catalog.ts'
import { restRoutes } from '../rest/routes.ts'
import { storageRoutes } from '../storage/routes.ts'
import { openObjectFiles } from '../storage/files.ts'
import { notServed } from '../storage/errors.ts'

export interface BackendOptions extends Partial<AuthOptions> {
  jwtSecret: string
  /** Folder for Storage object bytes; without it /storage/v1 answers that Storage is off. */
  storageDir?: string
}

export interface Backend {
  /** Answers the request when it is an API route; false leaves it to the next handler. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>
  /** Re-reads the schema (after migrations). */
  reloadCatalog(): Promise<void>
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, apikey, content-type, prefer, accept, accept-profile, content-profile, range, x-client-info, x-supabase-api-version, x-upsert, cache-control, x-metadata',
  'Access-Control-Expose-Headers': 'Content-Range, X-Supabase-Api-Version',
  'Access-Control-Max-Age': '86400',
}

const API_PREFIX = /^\/(auth\/v1|rest\/v1|functions\/v1|storage\/v1|api)(\/.*)?$/
/** Storage routes read the raw path (storage/paths.ts): object names must not be normalised. */
const STORAGE_PREFIX = /^\/storage\/v1(?=[/?#]|$)(\/[^?#]*)?/
/**
 * The server's requestTimeout is long enough for a large Storage upload (server.ts); every other
 * API request must still have sent its whole (at most 1 MiB) body within this time.
 */
const BODY_DEADLINE_MS = 30_000

/** The local Supabase: /auth/v1, /rest/v1, /functions/v1, /storage/v1 and /api on one database. */
export async function createBackend(db: Database, options: BackendOptions): Promise<Backend> {
  let catalog: Catalog = await loadCatalog(db)
  const auth = authRoutes(db, {
    jwtSecret: options.jwtSecret,
    jwtExpiry: options.jwtExpiry ?? 3600,
    bcryptRounds: options.bcryptRounds ?? 10,
    adminEmails: options.adminEmails ?? new Set(),
    emailSignup: options.emailSignup ?? true,
    issuer: options.issuer ?? 'http://127.0.0.1/auth/v1',
  })
  const rest = restRoutes(db, () => catalog, options.jwtSecret)
  const clientFor = localUserClient(db, options.jwtSecret)
  const edgeFunctions = new Map(Object.entries(EDGE_FUNCTIONS).map(([name, make]) => [name, make({ clientFor })]))
  const storage = options.storageDir ? storageRoutes(db, options.jwtSecret, await openObjectFiles(options.storageDir, db)) : undefined

  async function route(req: IncomingMessage, res: ServerResponse, service: string, path: string, url: URL) {
    if (service === 'auth/v1') {
      if (!(await auth(req, res, path, url))) throw new HttpError(404, { code: 'not_found', error_code: 'not_found', msg: `No auth route ${req.method} ${path}` })
      return
    }
    if (service === 'rest/v1') return rest(req, res, path, url)
    if (service === 'storage/v1') {
      const rawPath = STORAGE_PREFIX.exec(req.url ?? '')?.[1] ?? '/'
      if (!storage) {
        req.resume()
        throw notServed(req.method ?? 'GET', rawPath)
      }
      return storage(req, res, rawPath)
    }
    const edgeFunction = service === 'functions/v1' || service === 'api' ? edgeFunctions.get(path.slice(1)) : undefined
    if (edgeFunction) return runEdgeHandler(edgeFunction, req, res, url)
    throw new HttpError(404, { error: `No route ${req.method} /${service}${path}`, code: 'not_found', message: `No route ${req.method} /${service}${path}` })
  }

  return {
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://local')
      // The raw path decides whether Storage answers: URL parsing resolves `..`, and
      // /storage/v1/object/b/../../../rest/v1/x must reach Storage (and be refused), not REST.
      const service = STORAGE_PREFIX.test(req.url ?? '') ? 'storage/v1' : API_PREFIX.exec(url.pathname)?.[1]
      if (!service) return false
      if (service !== 'storage/v1') bodyDeadline(req, res)
      for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v)
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end()
        return true
      }
      try {
        await route(req, res, service, API_PREFIX.exec(url.pathname)?.[2] ?? '/', url)
      } catch (error) {
        if (!res.headersSent) {
          if (error instanceof HttpError) sendError(res, error)
          else if (isSqlError(error)) sendError(res, sqlErrorToHttp(error, roleOfVerifiedBearer(req)))
          else if (error instanceof URIError) sendJson(res, 400, { code: 'PGRST100', message: 'Malformed percent-encoding in the path', details: null, hint: null })
          else {
            console.error('local backend:', error)
            sendJson(res, 500, { code: 'internal', message: 'Internal error in the local backend', details: null, hint: null })
          }
        } else res.end()
      }
      return true
    },
    async reloadCatalog() {
      catalog = await loadCatalog(db)
    },
  }
}

/** Cuts off a client that has not sent its whole request body within BODY_DEADLINE_MS. */
function bodyDeadline(req: IncomingMessage, res: ServerResponse) {
  if (req.complete) return
  const timer = setTimeout(() => {
    if (!req.complete) req.destroy()
  }, BODY_DEADLINE_MS)
  timer.unref()
  res.once('close', () => clearTimeout(timer))
}

/**
 * PostgREST answers permission errors with 401 for the anon role and 403 for a user. Only called
 * after the token has been verified (a SQL error means the request got that far).
 */
function roleOfVerifiedBearer(req: IncomingMessage): string {
  const token = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')?.[1]
  if (!token) return 'anon'
  try {
    const role = decodeJwt(token).role
    return typeof role === 'string' ? role : 'anon'
  } catch {
    return 'anon'
  }
}
