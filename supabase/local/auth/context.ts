import type { Database } from '../core/db.ts'
import type { MfaLockout } from './mfa-lockout.ts'
import type { RateLimit, RateLimiter } from './rate-limit.ts'

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
  /** Wrong-TOTP-code limits (GoTrue rate-limits MFA verification the same way). */
  mfaLockout: MfaLockout
  /** Sign-ups per client address (GoTrue's per-IP sign-up limit). */
  signupRateLimit: RateLimit
}

/** What every auth handler gets. */
export interface AuthContext {
  db: Database
  options: AuthOptions
  /** The sign-up limiter's state (in memory, per process, as GoTrue's). */
  signupLimiter: RateLimiter
}

/** GoTrue's API-version header: auth-js reads error codes from the body when it is present. */
export const API_VERSION = { 'X-Supabase-Api-Version': '2024-01-01' }
