import type { Database } from '../core/db.ts'
import type { MailFrequency } from './email-links.ts'
import type { SendMail } from './mailer.ts'
import type { MfaLockout } from './mfa-lockout.ts'
import type { RateLimit, RateLimiter } from './rate-limit.ts'

export interface AuthOptions {
  jwtSecret: string
  /** Access-token lifetime in seconds (GoTrue's JWT_EXP; 3600 on Supabase). */
  jwtExpiry: number
  /**
   * Seconds a rotated refresh token still refreshes (GoTrue's SECURITY_REFRESH_TOKEN_REUSE_INTERVAL,
   * 10 on Supabase); used again after that, it ends its session.
   */
  refreshTokenReuseSeconds: number
  bcryptRounds: number
  /** Lower-cased e-mails that become administrators once confirmed (LOCAL_ADMIN_EMAILS). */
  adminEmails: ReadonlySet<string>
  /** False answers sign-ups the way GoTrue does when the e-mail provider is disabled. */
  emailSignup: boolean
  issuer: string
  /** Wrong-TOTP-code limits (GoTrue rate-limits MFA verification the same way). */
  mfaLockout: MfaLockout
  /** Sign-ups per client address (GoTrue's per-IP sign-up limit). */
  signupRateLimit: RateLimit
  /**
   * Sign-ups must follow a mailed link before they can sign in (LOCAL_EMAIL_CONFIRM; GoTrue's
   * MAILER_AUTOCONFIRM off). False confirms at sign-up, as Supabase's local enable_confirmations=false.
   */
  emailConfirm: boolean
  /** How mail leaves (SMTP); undefined logs each mail as not sent. */
  sendMail?: SendMail
  /** The site's origin: links in mails point here and may only send their session back here. */
  siteUrl: () => string
  /** One mail of a kind per address within this many seconds (GoTrue's SMTP_MAX_FREQUENCY, 60). */
  mailFrequencySeconds: number
  /** How long a mailed link works, in seconds (GoTrue's MAILER_OTP_EXP; 3600 on hosted Supabase). */
  linkExpirySeconds: number
  /** Recover and resend requests per client address (GoTrue's per-IP e-mail limit). */
  mailRateLimit: RateLimit
}

/** What every auth handler gets. */
export interface AuthContext {
  db: Database
  options: AuthOptions
  /** The sign-up limiter's state (in memory, per process, as GoTrue's). */
  signupLimiter: RateLimiter
  /** Recover/resend requests per client address. */
  mailLimiter: RateLimiter
  /** The last mail of each kind per address. */
  mailFrequency: MailFrequency
}

/** GoTrue's API-version header: auth-js reads error codes from the body when it is present. */
export const API_VERSION = { 'X-Supabase-Api-Version': '2024-01-01' }
