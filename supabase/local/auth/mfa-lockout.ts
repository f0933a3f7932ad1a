import type { Queryable } from '../core/db.ts'
import { authError, type HttpError } from '../core/errors.ts'

/**
 * How many wrong TOTP codes a factor and its account may get within `seconds` before verification
 * is refused (HTTP 429) until the oldest counted failure is that old. A 6-digit code has a million
 * values and three are valid at a time: 5 tries per 5 minutes make guessing hopeless.
 */
export interface MfaLockout {
  factorMaxFailures: number
  accountMaxFailures: number
  seconds: number
}

export const DEFAULT_MFA_LOCKOUT: MfaLockout = { factorMaxFailures: 5, accountMaxFailures: 10, seconds: 300 }

/**
 * Refuses verification while the factor or the account is locked out. Takes the account row's
 * lock first, so concurrent verifications of one account are judged one after another and no more
 * than the limit can ever be counted.
 */
export async function lockedOut(tx: Queryable, lockout: MfaLockout, userId: string, factorId: string): Promise<HttpError | undefined> {
  await tx.query('select 1 from auth.users where id = $1 for update', [userId])
  const { rows } = await tx.query<{ factor_failures: number; account_failures: number; wait: number }>(
    `select count(*) filter (where factor_id = $2)::int as factor_failures, count(*)::int as account_failures,
            coalesce(ceil(extract(epoch from min(created_at) + make_interval(secs => $3) - now())), 0)::int as wait
       from auth.mfa_failed_attempts where user_id = $1 and created_at > now() - make_interval(secs => $3)`,
    [userId, factorId, lockout.seconds],
  )
  const { factor_failures, account_failures, wait } = rows[0]!
  if (factor_failures < lockout.factorMaxFailures && account_failures < lockout.accountMaxFailures) return undefined
  const minutes = Math.max(1, Math.ceil(wait / 60))
  return authError(
    429,
    'over_request_rate_limit',
    `Too many wrong two-factor codes: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  )
}

/** Counts one wrong code against the factor and its account. */
export async function recordFailure(tx: Queryable, userId: string, factorId: string): Promise<void> {
  await tx.query('insert into auth.mfa_failed_attempts (user_id, factor_id) values ($1, $2)', [userId, factorId])
}
