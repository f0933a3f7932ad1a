import { readFileSync } from 'node:fs'
import { jwtSecretFileFor, localKeys } from '../../../supabase/local/core/local-keys.ts'

// The e2e server signs with its data folder's own secret (supabase/local/core/local-keys.ts), so a
// spec's raw API requests need that folder's anon key, as the app reads it from the served page.

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173)

/**
 * What every e2e server (the suite's and a spec's own) runs with: a fresh data folder loads the
 * migrated cluster cached under .local-data/snapshots (the first server of a run saves it), and
 * passwords are hashed with 4 bcrypt rounds instead of 10, as test-only accounts need no more.
 */
export const E2E_SERVER_ENV = {
  LOCAL_SNAPSHOT_CACHE: '.local-data/snapshots',
  LOCAL_BCRYPT_ROUNDS: '4',
  // The whole suite signs up (and links wallets) from 127.0.0.1: far more than the per-address hourly limits.
  LOCAL_SIGNUP_RATE_LIMIT: '100000',
  LOCAL_WALLET_LINK_RATE_LIMIT: '100000',
  // Specs sign up in bulk: accounts are confirmed at sign-up (mail.spec.ts turns confirmations back
  // on), and each server's mail catcher takes a free port.
  LOCAL_EMAIL_CONFIRM: 'off',
  LOCAL_MAILBOX_PORT: '0',
}

/** The data folder of the suite's server (playwright.config.ts's webServer). */
export const e2eDataDir = (): string => process.env.LOCAL_DATA_DIR ?? `.local-data/e2e-${E2E_PORT}`

/** The anon key a server on `dataDir` serves: LOCAL_JWT_SECRET's, else the folder's own secret. */
export async function anonKeyFor(dataDir: string): Promise<string> {
  const secret = process.env.LOCAL_JWT_SECRET || readFileSync(jwtSecretFileFor(dataDir), 'utf8').trim()
  return (await localKeys(secret)).anonKey
}

/**
 * The suite server's anon key. Test workers load specs after the server has started (and made
 * its secret); while Playwright only lists the tests, the folder may have no secret yet.
 */
export const LOCAL_ANON_KEY: string = await anonKeyFor(e2eDataDir()).catch(() => '')
