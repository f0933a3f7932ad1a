import type { IncomingMessage } from 'node:http'
import pg from 'pg'
import type { Database, Queryable } from './db.ts'
import { HttpError } from './errors.ts'
import { verifyJwt, type JwtClaims } from './jwt.ts'

export type ApiRole = 'anon' | 'authenticated'
/** Roles a transaction may take: the API roles plus the auth service's own. */
export type DbRole = ApiRole | 'service_role' | 'supabase_auth_admin'

export interface Caller {
  role: ApiRole
  claims: JwtClaims
  /** The request's headers as PostgREST publishes them to SQL (request.headers); API requests only. */
  headers?: Record<string, string>
}

// The service role is not served: its local key is the Supabase CLI's public demo key, and with
// it anyone could write wallets. Server-side code here talks to the database directly.
const API_ROLES: readonly string[] = ['anon', 'authenticated']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const JWT_REFUSALS = {
  bad_signature: 'JWT signature does not match',
  malformed: 'JWT is malformed',
  missing_exp: 'JWT has no expiry (exp claim): tokens must expire',
} as const

export const bearerToken = (req: IncomingMessage): string | undefined => {
  const header = req.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1] : ''
}

/**
 * Who is calling, from the bearer token (or, as PostgREST behind Supabase's gateway would see it,
 * the apikey). No token at all is the anon role; a token that does not verify is refused (401),
 * never downgraded.
 */
export async function callerFromRequest(req: IncomingMessage, jwtSecret: string): Promise<Caller> {
  const apikey = req.headers.apikey
  const caller = await callerFromToken(bearerToken(req) ?? (typeof apikey === 'string' ? apikey : undefined), jwtSecret)
  return { ...caller, headers: requestHeaders(req) }
}

/**
 * The headers SQL sees as request.headers. Hosted Supabase's gateway puts the client's address in
 * X-Forwarded-For; nothing stands in front of the local server, so the socket's peer is the client
 * and a client-sent X-Forwarded-For is replaced, never believed.
 */
export function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  delete headers['cf-connecting-ip']
  delete headers['x-real-ip']
  headers['x-forwarded-for'] = clientAddress(req)
  return headers
}

/** The peer's address, IPv4-mapped IPv6 written as plain IPv4. */
export const clientAddress = (req: IncomingMessage): string => (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '')

/** The same for a token on its own; undefined is the anon role. */
export async function callerFromToken(token: string | undefined, jwtSecret: string): Promise<Caller> {
  if (token === undefined) return { role: 'anon', claims: { role: 'anon' } }
  const check = await verifyJwt(token, jwtSecret)
  if (!check.ok) {
    throw check.reason === 'expired'
      ? new HttpError(401, { code: 'PGRST303', message: 'JWT expired', details: null, hint: null })
      : new HttpError(401, { code: 'PGRST301', message: JWT_REFUSALS[check.reason], details: null, hint: null })
  }
  const role = check.claims.role
  if (typeof role !== 'string' || !API_ROLES.includes(role)) {
    throw new HttpError(401, {
      code: 'PGRST301',
      message: `The local backend serves only the anon and authenticated roles, not "${String(role)}"`,
      details: null,
      hint: null,
    })
  }
  if (role === 'authenticated' && (typeof check.claims.sub !== 'string' || !UUID.test(check.claims.sub))) {
    throw new HttpError(401, { code: 'PGRST301', message: 'JWT sub is not a user id', details: null, hint: null })
  }
  return { role: role as ApiRole, claims: check.claims }
}

/** What a transaction publishes to SQL before the request's own statements. */
export interface RequestSettings {
  role: DbRole
  claims: JwtClaims
  /** request.headers, for API requests. */
  headers?: Record<string, string>
  /** The statement that calls PostgREST's db-pre-request function, when one is configured. */
  preRequest?: string
  /** READ ONLY access mode, as PostgREST opens every GET and HEAD: nothing the request runs can write. */
  readOnly?: boolean
}

/**
 * The statements that open a request's transaction, sent with BEGIN in one round trip (as
 * PostgREST does it): role, claims, headers and the statement timeout as transaction-local
 * settings, then the pre-request check. A simple-protocol message takes no parameters, so the
 * values go in as literals escaped by pg's escapeLiteral, the one place request data becomes
 * SQL text.
 */
export function openingSql({ role, claims, headers, preRequest, readOnly }: RequestSettings): string {
  const literal = pg.escapeLiteral
  // The statement timeout keeps one runaway request from holding PGlite's single connection.
  const settings = [
    `set_config('role', ${literal(role)}, true)`,
    `set_config('request.jwt.claims', ${literal(JSON.stringify({ ...claims, role: claims.role ?? role }))}, true)`,
    "set_config('statement_timeout', '10s', true)",
  ]
  if (headers) settings.push(`set_config('request.headers', ${literal(JSON.stringify(headers))}, true)`)
  // SET TRANSACTION must come before the transaction's first query.
  return `${readOnly ? 'set transaction read only; ' : ''}select ${settings.join(', ')};${preRequest ? ` ${preRequest};` : ''}`
}

/**
 * The only way request code reaches the database: one transaction that first drops to `role`
 * and publishes the JWT claims for auth.uid()/auth.jwt(), both transaction-local, so RLS applies
 * exactly as on Supabase and nothing leaks into the next request.
 */
export function runAs<T>(db: Database, role: DbRole, claims: JwtClaims, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(fn, openingSql({ role, claims }))
}
