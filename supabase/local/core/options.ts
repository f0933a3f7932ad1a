import type { IncomingMessage, ServerResponse } from 'node:http'
import type { MfaLockout } from '../auth/mfa-lockout.ts'
import type { RateLimit } from '../auth/rate-limit.ts'
import type { LocalKeys } from './local-keys.ts'

export interface LocalServerOptions {
  port?: number
  host?: string
  /** PGlite data folder; ignored when databaseUrl is set. Undefined: in memory. */
  dataDir?: string
  /** Wipe dataDir (and, with PGlite, storageDir) before opening (LOCAL_DATA_RESET=1). */
  reset?: boolean
  /**
   * Folder for Storage object bytes (LOCAL_STORAGE_DIR). Default: `<dataDir>-storage`, or without
   * dataDir a fresh temporary folder removed on close.
   */
  storageDir?: string
  /** A real PostgreSQL instead of PGlite (DATABASE_URL). */
  databaseUrl?: string
  /**
   * PGlite only, in memory or into an empty dataDir: start from this data-folder dump
   * (PGlite's dumpDataDir) instead of an empty cluster. The test suites pass a dump taken right
   * after bootstrap + migrations, once per run; migrate() still runs and checks every checksum.
   */
  pgliteSnapshot?: Blob
  /**
   * PGlite only (LOCAL_SNAPSHOT_CACHE): a folder of migrated-cluster dumps keyed by the migrations
   * (snapshot-cache.ts). A new data folder starts from the matching dump, and saves one when none exists.
   */
  snapshotCacheDir?: string
  /** Signing secret (LOCAL_JWT_SECRET); default: the data folder's own (local-keys.ts), or a random one in memory. */
  jwtSecret?: string
  jwtExpiry?: number
  /** Seconds a rotated refresh token still refreshes (GoTrue's reuse interval); default 10. */
  refreshTokenReuseSeconds?: number
  bcryptRounds?: number
  adminEmails?: Iterable<string>
  emailSignup?: boolean
  /** Sign-ups confirm their e-mail through a mailed link (LOCAL_EMAIL_CONFIRM=off turns it off); default on. */
  emailConfirm?: boolean
  /** Where auth mail goes (LOCAL_SMTP_URL, `smtp://user:pass@host:port`); `npm start` points it at its mail catcher. */
  smtpUrl?: string
  /** The From of auth mail (LOCAL_MAIL_FROM). */
  mailFrom?: string
  /** The site's public origin for links in mails (SITE_URL, as GoTrue's); default the server's own URL. */
  siteUrl?: string
  /** One mail of a kind per address within this many seconds (default 60, GoTrue's SMTP_MAX_FREQUENCY). */
  mailFrequencySeconds?: number
  /** Recover and resend requests per client address per hour (LOCAL_MAIL_RATE_LIMIT); default 30. */
  mailRateLimit?: RateLimit
  /** Runs the embedded EVM development chain in-process and deploys the NFT contract on it (LOCAL_CHAIN=off to skip). */
  embeddedChain?: boolean
  // --- account integrity (TOTP lockout, per-folder JWT secret) ---
  /** Wrong-TOTP-code limits; default 5 per factor, 10 per account, within 5 minutes. */
  mfaLockout?: MfaLockout
  // --- end account integrity ---
  /** Sign-ups per client address per hour (LOCAL_SIGNUP_RATE_LIMIT); default 30, GoTrue's 429 beyond. */
  signupRateLimit?: RateLimit
  /** Wallet links (wallet-verify) per client address per hour (LOCAL_WALLET_LINK_RATE_LIMIT); default 10. */
  walletLinkRateLimit?: number
  /** /chain/rpc calls per client address per minute (LOCAL_CHAIN_RPC_RATE_LIMIT); default 600. */
  chainRpcRateLimit?: RateLimit
  /** Serves everything the backend does not (the built app; `keys` for the anon key its page carries). */
  fallback?: (req: IncomingMessage, res: ServerResponse, keys: LocalKeys) => Promise<void>
}

/** Storage's default folder beside a PGlite data folder: `.local-data/db` → `.local-data/db-storage`. */
export const storageDirFor = (dataDir: string): string => `${dataDir.replace(/[\\/]+$/, '')}-storage`

/**
 * Reads the documented environment variables (README, "## Backend").
 * Storage (/storage/v1) keeps object bytes in files, not in the database:
 *   LOCAL_STORAGE_DIR  folder for them; default `<LOCAL_DATA_DIR>-storage` (`.local-data/db-storage`,
 *                      and `.local-data/dev-storage` under `npm run dev`). Layout:
 *                      `<dir>/<bucket>/<version uuid>` plus `<dir>/.tmp/` for bodies still arriving.
 *   LOCAL_DATA_RESET=1 also empties it when the database is PGlite (with DATABASE_URL the rows
 *                      stay, so their files stay too).
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalServerOptions {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.LOCAL_DATA_DIR ?? '.local-data/db',
    reset: env.LOCAL_DATA_RESET === '1',
    storageDir: env.LOCAL_STORAGE_DIR || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    snapshotCacheDir: env.LOCAL_SNAPSHOT_CACHE || undefined,
    jwtSecret: env.LOCAL_JWT_SECRET || undefined,
    jwtExpiry: env.LOCAL_JWT_EXPIRY ? Number(env.LOCAL_JWT_EXPIRY) : undefined,
    bcryptRounds: env.LOCAL_BCRYPT_ROUNDS ? Number(env.LOCAL_BCRYPT_ROUNDS) : undefined,
    adminEmails: (env.LOCAL_ADMIN_EMAILS ?? '').split(','),
    emailSignup: env.LOCAL_EMAIL_SIGNUP !== 'off',
    emailConfirm: env.LOCAL_EMAIL_CONFIRM !== 'off',
    smtpUrl: env.LOCAL_SMTP_URL || undefined,
    mailFrom: env.LOCAL_MAIL_FROM || undefined,
    siteUrl: env.SITE_URL || undefined,
    mailRateLimit: env.LOCAL_MAIL_RATE_LIMIT
      ? { max: positiveInt('LOCAL_MAIL_RATE_LIMIT', env.LOCAL_MAIL_RATE_LIMIT), seconds: 3600 }
      : undefined,
    embeddedChain: env.LOCAL_CHAIN !== 'off',
    signupRateLimit: env.LOCAL_SIGNUP_RATE_LIMIT
      ? { max: positiveInt('LOCAL_SIGNUP_RATE_LIMIT', env.LOCAL_SIGNUP_RATE_LIMIT), seconds: 3600 }
      : undefined,
    walletLinkRateLimit: env.LOCAL_WALLET_LINK_RATE_LIMIT
      ? positiveInt('LOCAL_WALLET_LINK_RATE_LIMIT', env.LOCAL_WALLET_LINK_RATE_LIMIT)
      : undefined,
    chainRpcRateLimit: env.LOCAL_CHAIN_RPC_RATE_LIMIT
      ? { max: positiveInt('LOCAL_CHAIN_RPC_RATE_LIMIT', env.LOCAL_CHAIN_RPC_RATE_LIMIT), seconds: 60 }
      : undefined,
  }
}

/** A limit from the environment: a whole number of at least 1, or the server refuses to start. */
function positiveInt(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, not "${value}"`)
  return n
}

/** LOCAL_ADMIN_EMAILS as the auth service compares them: trimmed, lower-case, no empties. */
export const adminEmailSet = (emails: Iterable<string> | undefined): Set<string> =>
  new Set([...(emails ?? [])].map((e) => e.trim().toLowerCase()).filter(Boolean))
