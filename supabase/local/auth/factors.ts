import { generateSecret, generateURI, verify } from 'otplib'
import { totpQrSvg } from './totp-qr-svg.ts'
import { runAs } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import { authError, sendJson } from '../core/errors.ts'
import { readJson } from '../core/http-body.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { lockedOut, recordFailure } from './mfa-lockout.ts'
import { issueSession, liveSession } from './sessions.ts'
import { AUTH_ADMIN, USER_COLUMNS, UUID, type UserRow } from './users.ts'

// GoTrue's TOTP MFA (/auth/v1/factors…), as auth-js's `auth.mfa` calls it: enrol returns the secret
// and a QR code once; a challenge lives 5 minutes; verifying a code raises the session to aal2;
// unenrolling a verified factor needs an aal2 session. Codes are RFC 6238 (30 s, 6 digits, SHA-1),
// one step of clock drift either way, and a code is accepted at most once. Wrong codes are counted
// per factor and per account; too many lock verification for a while (mfa-lockout.ts).

const CHALLENGE_SECONDS = 300
const MAX_FACTORS = 10

interface FactorRow {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: string
  status: string
  secret: string
  last_step: string | null
  created_at: string
  updated_at: string
}

const factorJson = (f: FactorRow) => ({
  id: f.id,
  friendly_name: f.friendly_name ?? '',
  factor_type: f.factor_type,
  status: f.status,
  created_at: f.created_at,
  updated_at: f.updated_at,
})
const FACTOR_COLUMNS = `id, user_id, friendly_name, factor_type, status, secret, last_step::text as last_step,
  to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at`

async function ownFactor(tx: Queryable, userId: string, factorId: string) {
  if (!UUID.test(factorId)) throw authError(404, 'mfa_factor_not_found', 'Factor not found')
  const { rows } = await tx.query<FactorRow>(`select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2 for update`, [
    factorId,
    userId,
  ])
  if (!rows[0]) throw authError(404, 'mfa_factor_not_found', 'Factor not found')
  return rows[0]
}

/** POST /auth/v1/factors {factor_type: 'totp', friendly_name?, issuer?}. */
export async function enroll({ db, options }: AuthContext, { req, res }: ApiRequest) {
  const body = ((await readJson(req, 'auth')) ?? {}) as { factor_type?: unknown; friendly_name?: unknown; issuer?: unknown }
  if (body.factor_type !== 'totp') throw authError(422, 'mfa_factor_type_unsupported', 'Only TOTP factors are supported here')
  const friendlyName = typeof body.friendly_name === 'string' && body.friendly_name.trim() ? body.friendly_name.trim().slice(0, 100) : null
  const issuer = typeof body.issuer === 'string' && body.issuer.trim() ? body.issuer.trim().slice(0, 100) : 'CUBE Music'
  const answer = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const { rows: factors } = await tx.query<{ status: string; friendly_name: string | null }>(
      'select status, friendly_name from auth.mfa_factors where user_id = $1',
      [session.sub],
    )
    if (factors.some((f) => f.status === 'verified') && session.aal !== 'aal2')
      throw authError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor')
    if (factors.length >= MAX_FACTORS)
      throw authError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of enrolled factors reached, unenroll to continue')
    if (friendlyName && factors.some((f) => f.friendly_name === friendlyName))
      throw authError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`)
    const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [session.sub])).rows[0]!
    const secret = generateSecret()
    const { rows } = await tx.query<FactorRow>(
      `insert into auth.mfa_factors (user_id, friendly_name, secret) values ($1, $2, $3) returning ${FACTOR_COLUMNS}`,
      [session.sub, friendlyName, secret],
    )
    const uri = generateURI({ issuer, label: user.email, secret })
    const qr = await totpQrSvg(uri)
    return { id: rows[0]!.id, type: 'totp', friendly_name: friendlyName ?? '', totp: { qr_code: qr, secret, uri } }
  })
  sendJson(res, 200, answer, API_VERSION)
}

/** POST /auth/v1/factors/:id/challenge. */
export async function challenge({ db, options }: AuthContext, { req, res }: ApiRequest, { id }: Readonly<Record<string, string>>) {
  await readJson(req, 'auth')
  const answer = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const factor = await ownFactor(tx, session.sub, id!)
    const { rows } = await tx.query<{ id: string; expires_at: number }>(
      `insert into auth.mfa_challenges (factor_id) values ($1) returning id, extract(epoch from created_at)::int + ` +
        `${CHALLENGE_SECONDS} as expires_at`,
      [factor.id],
    )
    return { id: rows[0]!.id, type: 'totp', expires_at: rows[0]!.expires_at }
  })
  sendJson(res, 200, answer, API_VERSION)
}

/** POST /auth/v1/factors/:id/verify {challenge_id, code}: a correct code makes this session aal2. */
export async function verifyFactor({ db, options }: AuthContext, { req, res }: ApiRequest, { id }: Readonly<Record<string, string>>) {
  const body = ((await readJson(req, 'auth')) ?? {}) as { challenge_id?: unknown; code?: unknown }
  if (typeof body.challenge_id !== 'string' || !UUID.test(body.challenge_id))
    throw authError(422, 'mfa_challenge_not_found', 'Challenge not found')
  if (typeof body.code !== 'string' || !/^\d{6}$/.test(body.code))
    throw authError(422, 'mfa_verification_failed', 'Invalid TOTP code entered')
  const code = body.code
  const outcome = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const factor = await ownFactor(tx, session.sub, id!)
    const locked = await lockedOut(tx, options.mfaLockout, session.sub, factor.id)
    if (locked) return { error: locked }
    const { rows: challenges } = await tx.query<{ id: string; expired: boolean; verified: boolean }>(
      `select id, created_at < now() - interval '${CHALLENGE_SECONDS} seconds' as expired, verified_at is not null as verified
         from auth.mfa_challenges where id = $1 and factor_id = $2 for update`,
      [body.challenge_id, factor.id],
    )
    const found = challenges[0]
    if (!found || found.verified) return { error: authError(422, 'mfa_challenge_not_found', 'Challenge not found') }
    if (found.expired) {
      await tx.query('delete from auth.mfa_challenges where id = $1', [found.id])
      return {
        error: authError(
          422,
          'mfa_challenge_expired',
          'MFA challenge has expired, verify against another challenge or create a new challenge.',
        ),
      }
    }
    const result = await verify({ secret: factor.secret, token: code, epochTolerance: 30 })
    const step = result.valid && 'epoch' in result ? Math.floor(result.epoch / 30) : null
    if (step === null || (factor.last_step !== null && step <= Number(factor.last_step))) {
      await recordFailure(tx, session.sub, factor.id)
      return { error: authError(422, 'mfa_verification_failed', 'Invalid TOTP code entered') }
    }
    await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [found.id])
    await tx.query("update auth.mfa_factors set status = 'verified', last_step = $2, updated_at = now() where id = $1", [factor.id, step])
    await tx.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
      session.sessionId,
      factor.id,
    ])
    const user = (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [session.sub])).rows[0]!
    return { session: await issueSession(options, tx, user, session.sessionId, null) }
  })
  if ('error' in outcome) throw outcome.error
  sendJson(res, 200, outcome.session, API_VERSION)
}

/** DELETE /auth/v1/factors/:id: a verified factor goes only from an aal2 session. */
export async function unenroll({ db, options }: AuthContext, { req, res }: ApiRequest, { id }: Readonly<Record<string, string>>) {
  const answer = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await liveSession(options, tx, req)
    const factor = await ownFactor(tx, session.sub, id!)
    if (factor.status === 'verified' && session.aal !== 'aal2')
      throw authError(403, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
    await tx.query('delete from auth.mfa_factors where id = $1', [factor.id])
    // Sessions raised by this factor fall back to aal1, as in GoTrue.
    await tx.query("update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1", [factor.id])
    return factorJson(factor)
  })
  sendJson(res, 200, { id: answer.id }, API_VERSION)
}
