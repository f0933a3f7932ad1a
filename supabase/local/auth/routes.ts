import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import bcrypt from 'bcryptjs'
import { bearerToken, runAs } from '../core/caller.ts'
import type { Database, Queryable } from '../core/db.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import { signJwt, verifyJwt } from '../core/jwt.ts'

export interface AuthOptions {
  jwtSecret: string
  /** Access-token lifetime in seconds (GoTrue's JWT_EXP; 3600 on Supabase). */
  jwtExpiry: number
  bcryptRounds: number
  /** Lower-cased e-mails that become administrators when they sign up (LOCAL_ADMIN_EMAILS). */
  adminEmails: ReadonlySet<string>
  /** False answers sign-ups the way GoTrue does when the e-mail provider is disabled. */
  emailSignup: boolean
  issuer: string
}

interface UserRow {
  id: string
  email: string
  encrypted_password: string
  raw_user_meta_data: Record<string, unknown> | string | null
  raw_app_meta_data: Record<string, unknown> | string | null
  email_confirmed_at: string | null
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const AUTH_ADMIN = { role: 'supabase_auth_admin' }
const USER_COLUMNS = `id, email, encrypted_password, raw_user_meta_data::text as raw_user_meta_data, raw_app_meta_data::text as raw_app_meta_data,
  to_json(email_confirmed_at) #>> '{}' as email_confirmed_at, to_json(last_sign_in_at) #>> '{}' as last_sign_in_at,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at`

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
const parseMeta = (value: UserRow['raw_user_meta_data']): Record<string, unknown> =>
  typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : (value ?? {})

/** GoTrue's user object, as auth-js expects it. */
function userJson(row: UserRow) {
  return {
    id: row.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: row.email,
    email_confirmed_at: row.email_confirmed_at,
    phone: '',
    confirmed_at: row.email_confirmed_at,
    last_sign_in_at: row.last_sign_in_at,
    app_metadata: parseMeta(row.raw_app_meta_data),
    user_metadata: parseMeta(row.raw_user_meta_data),
    identities: [],
    created_at: row.created_at,
    updated_at: row.updated_at,
    is_anonymous: false,
  }
}

/** The auth service (GoTrue subset): sign-up, password and refresh-token grants, user, logout. */
export function authRoutes(db: Database, options: AuthOptions) {
  async function issueSession(tx: Queryable, user: UserRow, sessionId: string, parent: string | null) {
    const refreshToken = randomBytes(24).toString('base64url')
    await tx.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [hashToken(refreshToken), user.id, sessionId, parent])
    const now = Math.floor(Date.now() / 1000)
    const expiresAt = now + options.jwtExpiry
    const appMeta = parseMeta(user.raw_app_meta_data)
    const accessToken = await signJwt(
      {
        iss: options.issuer,
        sub: user.id,
        aud: 'authenticated',
        exp: expiresAt,
        iat: now,
        email: user.email,
        phone: '',
        app_metadata: appMeta,
        user_metadata: parseMeta(user.raw_user_meta_data),
        role: 'authenticated',
        aal: 'aal1',
        amr: [{ method: 'password', timestamp: now }],
        session_id: sessionId,
        is_anonymous: false,
      },
      options.jwtSecret,
    )
    return { access_token: accessToken, token_type: 'bearer', expires_in: options.jwtExpiry, expires_at: expiresAt, refresh_token: refreshToken, user: userJson(user) }
  }

  async function newSession(tx: Queryable, user: UserRow) {
    const { rows } = await tx.query<{ id: string }>('insert into auth.sessions (user_id) values ($1) returning id', [user.id])
    return issueSession(tx, user, rows[0]!.id, null)
  }

  async function signup(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req, 'auth')
    if (!options.emailSignup) throw authError(422, 'email_provider_disabled', 'Email signups are disabled')
    const { email, password, data } = (body ?? {}) as { email?: unknown; password?: unknown; data?: unknown }
    if (typeof email !== 'string' || !EMAIL.test(email.trim())) throw authError(400, 'validation_failed', 'Unable to validate email address: invalid format')
    if (typeof password !== 'string' || password === '') throw authError(400, 'validation_failed', 'Signup requires a valid password')
    if (password.length < 6) {
      const error = authError(422, 'weak_password', 'Password should be at least 6 characters.')
      error.body.weak_password = { reasons: ['length'], message: 'Password should be at least 6 characters.' }
      throw error
    }
    if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) throw authError(400, 'validation_failed', 'data must be an object')
    const normalised = email.trim().toLowerCase()
    // GoTrue writes $2a$ hashes; bcryptjs's $2b$ is the same algorithm under another name.
    const hash = (await bcrypt.hash(password, options.bcryptRounds)).replace(/^\$2b\$/, '$2a$')
    const session = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
      const existing = await tx.query('select 1 from auth.users where email = $1', [normalised])
      if (existing.rows.length) throw authError(422, 'user_already_exists', 'User already registered')
      const { rows } = await tx.query<UserRow>(
        `insert into auth.users (email, encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, last_sign_in_at)
         values ($1, $2, $3::jsonb, '{"provider":"email","providers":["email"]}'::jsonb, now(), now())
         on conflict (email) do nothing
         returning ${USER_COLUMNS}`,
        [normalised, hash, JSON.stringify(data ?? {})],
      )
      const user = rows[0]
      if (!user) throw authError(422, 'user_already_exists', 'User already registered')
      if (options.adminEmails.has(normalised)) {
        await tx.query("select set_config('role', 'service_role', true)")
        await tx.query('insert into public.administrators (user_id) values ($1) on conflict do nothing', [user.id])
        await tx.query("select set_config('role', 'supabase_auth_admin', true)")
      }
      return newSession(tx, user)
    })
    sendJson(res, 200, session)
  }

  async function passwordGrant(body: { email?: unknown; password?: unknown }) {
    if (typeof body.email !== 'string' || typeof body.password !== 'string') throw authError(400, 'validation_failed', 'missing email or password')
    const email = body.email.trim().toLowerCase()
    const found = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) => tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where email = $1`, [email]))
    const user = found.rows[0]
    // Compare even without a user so the answer takes as long either way.
    const ok = await bcrypt.compare(body.password, user?.encrypted_password ?? '$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva')
    if (!user || !ok) throw authError(400, 'invalid_credentials', 'Invalid login credentials')
    return runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
      const { rows } = await tx.query<UserRow>(`update auth.users set last_sign_in_at = now() where id = $1 returning ${USER_COLUMNS}`, [user.id])
      return newSession(tx, rows[0]!)
    })
  }

  async function refreshGrant(body: { refresh_token?: unknown }) {
    if (typeof body.refresh_token !== 'string' || body.refresh_token === '') throw authError(400, 'validation_failed', 'refresh_token required')
    const tokenHash = hashToken(body.refresh_token)
    const outcome = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
      const { rows } = await tx.query<{ user_id: string; session_id: string; revoked: boolean }>('select user_id, session_id, revoked from auth.refresh_tokens where token = $1 for update', [tokenHash])
      const token = rows[0]
      if (!token) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
      if (token.revoked) {
        // A rotated token used again means it leaked: end the whole session, as GoTrue does.
        await tx.query('delete from auth.sessions where id = $1', [token.session_id])
        return { error: authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used') }
      }
      await tx.query('update auth.refresh_tokens set revoked = true where token = $1', [tokenHash])
      await tx.query('update auth.sessions set updated_at = now() where id = $1', [token.session_id])
      const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [token.user_id])).rows[0]
      if (!user) return { error: authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found') }
      return { session: await issueSession(tx, user, token.session_id, tokenHash) }
    })
    // The revocation above must commit even though the answer is an error.
    if ('error' in outcome) throw outcome.error
    return outcome.session
  }

  async function token(req: IncomingMessage, res: ServerResponse, url: URL) {
    const body = ((await readJson(req, 'auth')) ?? {}) as Record<string, unknown>
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw authError(400, 'validation_failed', 'body must be a JSON object')
    const grant = url.searchParams.get('grant_type')
    if (grant === 'password') return sendJson(res, 200, await passwordGrant(body), { 'X-Supabase-Api-Version': '2024-01-01' })
    if (grant === 'refresh_token') return sendJson(res, 200, await refreshGrant(body), { 'X-Supabase-Api-Version': '2024-01-01' })
    throw authError(400, 'unsupported_grant_type', 'unsupported_grant_type')
  }

  /** The signed-in user's JWT claims, checked against a live session as GoTrue does. */
  async function sessionClaims(req: IncomingMessage) {
    const jwt = bearerToken(req)
    if (!jwt) throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
    const check = await verifyJwt(jwt, options.jwtSecret)
    if (!check.ok) throw authError(403, 'bad_jwt', check.reason === 'expired' ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired' : 'invalid JWT: unable to parse or verify signature')
    const { sub, session_id: sessionId } = check.claims
    if (check.claims.role !== 'authenticated' || typeof sub !== 'string' || !UUID.test(sub)) throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim')
    if (typeof sessionId !== 'string' || !UUID.test(sessionId)) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
    return { sub, sessionId }
  }

  async function user(req: IncomingMessage, res: ServerResponse) {
    const { sub, sessionId } = await sessionClaims(req)
    const row = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
      const session = await tx.query('select 1 from auth.sessions where id = $1 and user_id = $2', [sessionId, sub])
      if (!session.rows.length) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
      return (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [sub])).rows[0]
    })
    if (!row) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    sendJson(res, 200, userJson(row), { 'X-Supabase-Api-Version': '2024-01-01' })
  }

  async function logout(req: IncomingMessage, res: ServerResponse, url: URL) {
    const { sub, sessionId } = await sessionClaims(req)
    const scope = url.searchParams.get('scope') ?? 'global'
    if (!['global', 'local', 'others'].includes(scope)) throw authError(400, 'validation_failed', 'scope must be global, local or others')
    await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) =>
      scope === 'global'
        ? tx.query('delete from auth.sessions where user_id = $1', [sub])
        : scope === 'local'
          ? tx.query('delete from auth.sessions where id = $1', [sessionId])
          : tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [sub, sessionId]),
    )
    res.writeHead(204, { 'X-Supabase-Api-Version': '2024-01-01' }).end()
  }

  /** Answers /auth/v1/* (path without the prefix); false when the route is not ours. */
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<boolean> {
    const route = `${req.method} ${path}`
    if (route === 'POST /signup') await signup(req, res)
    else if (route === 'POST /token') await token(req, res, url)
    else if (route === 'GET /user') await user(req, res)
    else if (route === 'POST /logout') await logout(req, res, url)
    else if (route === 'GET /health') sendJson(res, 200, { name: 'GoTrue (CUBE local)', description: 'Local auth for CUBE Music' })
    else return false
    return true
  }
}
