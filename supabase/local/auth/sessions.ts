import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { bearerToken } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import { authError } from '../core/errors.ts'
import { signJwt, verifyJwt } from '../core/jwt.ts'
import type { AuthOptions } from './context.ts'
import { parseMeta, userJson, UUID, type UserRow } from './users.ts'

/** Refresh tokens are stored hashed: the database never holds one that works. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** A session answer as GoTrue sends it: a fresh access token (JWT) and a new refresh token. */
export async function issueSession(options: AuthOptions, tx: Queryable, user: UserRow, sessionId: string, parent: string | null) {
  const refreshToken = randomBytes(24).toString('base64url')
  await tx.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
    hashToken(refreshToken),
    user.id,
    sessionId,
    parent,
  ])
  const now = Math.floor(Date.now() / 1000)
  const expiresAt = now + options.jwtExpiry
  // The session's assurance level and how it got there: a refresh keeps what the session proved.
  const { rows: levels } = await tx.query<{ aal: string; method: string; created: number; verified: number | null }>(
    `select s.aal, s.method, extract(epoch from s.created_at)::int as created,
            (select extract(epoch from max(c.verified_at))::int from auth.mfa_challenges c where c.factor_id = s.factor_id) as verified
       from auth.sessions s where s.id = $1`,
    [sessionId],
  )
  const level = levels[0] ?? { aal: 'aal1', method: 'password', created: now, verified: null }
  const amr = [
    ...(level.aal === 'aal2' ? [{ method: 'totp', timestamp: level.verified ?? now }] : []),
    { method: level.method, timestamp: level.created },
  ]
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
      aal: level.aal,
      amr,
      session_id: sessionId,
      is_anonymous: false,
    },
    options.jwtSecret,
  )
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: options.jwtExpiry,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  }
}

/**
 * Opens a new session and issues its first tokens: 'password' for a sign-in or sign-up, 'otp' for
 * a confirmation link, 'recovery' for a password-reset link (GoTrue's amr methods).
 */
export async function newSession(options: AuthOptions, tx: Queryable, user: UserRow, method: 'password' | 'otp' | 'recovery' = 'password') {
  const { rows } = await tx.query<{ id: string }>('insert into auth.sessions (user_id, method) values ($1, $2) returning id', [
    user.id,
    method,
  ])
  return issueSession(options, tx, user, rows[0]!.id, null)
}

/** The signed-in user's claims and that their session is still live (it ends on sign-out). */
export async function liveSession(options: AuthOptions, tx: Queryable, req: IncomingMessage) {
  const claims = await sessionClaims(options, req)
  const { rows } = await tx.query<{ aal: string; method: string; age: number }>(
    'select aal, method, extract(epoch from now() - created_at)::int as age from auth.sessions where id = $1 and user_id = $2',
    [claims.sessionId, claims.sub],
  )
  if (!rows[0]) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  return { ...claims, aal: rows[0].aal, method: rows[0].method, age: rows[0].age }
}

/** The signed-in user's JWT claims; the caller still checks the session is live, as GoTrue does. */
export async function sessionClaims(options: AuthOptions, req: IncomingMessage) {
  const jwt = bearerToken(req)
  if (!jwt) throw authError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  const check = await verifyJwt(jwt, options.jwtSecret)
  if (!check.ok) {
    const why =
      check.reason === 'expired'
        ? ', token has invalid claims: token is expired'
        : check.reason === 'missing_exp'
          ? ', token has invalid claims: token has no expiry (exp)'
          : ''
    throw authError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature${why}`)
  }
  const { sub, session_id: sessionId } = check.claims
  if (check.claims.role !== 'authenticated' || typeof sub !== 'string' || !UUID.test(sub))
    throw authError(403, 'bad_jwt', 'invalid claim: missing sub claim')
  if (typeof sessionId !== 'string' || !UUID.test(sessionId))
    throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  return { sub, sessionId }
}
