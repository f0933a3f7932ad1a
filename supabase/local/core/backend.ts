import type { IncomingMessage, ServerResponse } from 'node:http'
import { decodeJwt } from 'jose'
import type { AuthOptions } from '../auth/context.ts'
import { DEFAULT_MFA_LOCKOUT } from '../auth/mfa-lockout.ts'
import { publishSignupMode } from '../auth/signup-mode.ts'
import { DEFAULT_MAIL_RATE_LIMIT, DEFAULT_SIGNUP_RATE_LIMIT, type RateLimit } from '../auth/rate-limit.ts'
import { loadCatalog, type Catalog } from '../rest/catalog.ts'
import { routeTable } from '../routes.ts'
import { openObjectFiles } from '../storage/files.ts'
import type { Database } from './db.ts'
import type { MinterFor } from '../../functions/_shared/chain.ts'
import { custodialKeys, newCustodialSecret, type CustodialKeys } from '../../functions/_shared/custodial-keys.ts'
import { DEFAULT_WALLET_LINKS_PER_HOUR } from '../../functions/wallet-verify/handler.ts'
import { clientWentAway, HttpError, isSqlError, sendError, sendJson, sqlErrorToHttp } from './errors.ts'
import { serviceRouter } from './router.ts'
import { sealPlainCustodialKeys } from './custodial-at-rest.ts'
import { ownerOnlyFolder } from './private-folders.ts'

export interface BackendOptions extends Partial<AuthOptions> {
  jwtSecret: string
  /** Folder for Storage object bytes; without it /storage/v1 answers that Storage is off. */
  storageDir?: string
  /** The chains edge functions can mint on. */
  minterFor?: MinterFor
  /** Wallet links per client address per hour (wallet-verify); default DEFAULT_WALLET_LINKS_PER_HOUR (10). */
  walletLinkRateLimit?: number
  /** Seals custodial private keys; the key lives outside the database (local-keys.ts). */
  custodialKeys?: CustodialKeys
  /** The embedded chain's raw JSON-RPC, served read-only at /chain/rpc. */
  chainRpc?: (method: string, params: unknown[]) => Promise<unknown>
  /** /chain/rpc calls per client address (default DEFAULT_CHAIN_RPC_RATE_LIMIT: 600 a minute). */
  chainRpcRateLimit?: RateLimit
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
  'Access-Control-Allow-Headers':
    'authorization, apikey, content-type, prefer, accept, accept-profile, content-profile, range, x-client-info, ' +
    'x-supabase-api-version, x-upsert, cache-control, x-metadata',
  'Access-Control-Expose-Headers': 'Content-Range, X-Supabase-Api-Version',
  'Access-Control-Max-Age': '86400',
}

/**
 * The server's requestTimeout is long enough for a large Storage upload (server.ts); every other
 * API request must still have sent its whole (at most 1 MiB) body within this time.
 */
const BODY_DEADLINE_MS = 30_000

/**
 * The local Supabase on one database: the services of the route table (../routes.ts) behind
 * what every API answer shares: CORS, the body deadline, and errors as JSON in the shape of the
 * service that raised them (PostgREST's for SQL errors).
 */
export async function createBackend(db: Database, options: BackendOptions): Promise<Backend> {
  let catalog: Catalog = await loadCatalog(db)
  // Without a key of the data folder's (an in-memory database), one for this process alone.
  const keys = options.custodialKeys ?? (await custodialKeys(newCustodialSecret()))
  await sealPlainCustodialKeys(db, keys)
  await publishSignupMode(db, options.emailConfirm ?? true)
  if (options.storageDir) await ownerOnlyFolder(options.storageDir, 'storage folder')
  const route = serviceRouter(
    routeTable({
      db,
      jwtSecret: options.jwtSecret,
      catalog: () => catalog,
      auth: {
        jwtSecret: options.jwtSecret,
        jwtExpiry: options.jwtExpiry ?? 3600,
        refreshTokenReuseSeconds: options.refreshTokenReuseSeconds ?? 10,
        bcryptRounds: options.bcryptRounds ?? 10,
        adminEmails: options.adminEmails ?? new Set(),
        emailSignup: options.emailSignup ?? true,
        issuer: options.issuer ?? 'http://127.0.0.1/auth/v1',
        mfaLockout: options.mfaLockout ?? DEFAULT_MFA_LOCKOUT,
        signupRateLimit: options.signupRateLimit ?? DEFAULT_SIGNUP_RATE_LIMIT,
        emailConfirm: options.emailConfirm ?? true,
        sendMail: options.sendMail,
        siteUrl: options.siteUrl ?? (() => 'http://127.0.0.1:8080'),
        mailFrequencySeconds: options.mailFrequencySeconds ?? 60,
        linkExpirySeconds: options.linkExpirySeconds ?? 3600,
        mailRateLimit: options.mailRateLimit ?? DEFAULT_MAIL_RATE_LIMIT,
      },
      walletLinkRateLimit: options.walletLinkRateLimit ?? DEFAULT_WALLET_LINKS_PER_HOUR,
      custodialKeys: keys,
      objectFiles: options.storageDir ? await openObjectFiles(options.storageDir, db) : undefined,
      minterFor: options.minterFor,
      chainRpc: options.chainRpc,
      chainRpcRateLimit: options.chainRpcRateLimit,
    }),
  )

  return {
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://local')
      const found = route(req, url)
      if (!found) return false
      const { service, ...paths } = found
      if (!service.streamsBodies) bodyDeadline(req, res)
      for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v)
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end()
        return true
      }
      try {
        await service.handle({ req, res, url, ...paths })
      } catch (error) {
        if (!res.headersSent) {
          if (error instanceof HttpError) sendError(res, error)
          else if (isSqlError(error)) sendError(res, sqlErrorToHttp(error, roleOfVerifiedBearer(req)))
          else if (error instanceof URIError)
            sendJson(res, 400, { code: 'PGRST100', message: 'Malformed percent-encoding in the path', details: null, hint: null })
          else {
            if (!clientWentAway(req, error)) console.error('local backend:', error)
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
