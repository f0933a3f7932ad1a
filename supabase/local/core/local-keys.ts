import { randomBytes } from 'node:crypto'
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { signJwt } from './jwt.ts'
import { custodialKeys, type CustodialKeys } from '../../functions/_shared/custodial-keys.ts'

/**
 * The Supabase CLI's public demo secret (`supabase start` prints it). Anyone can sign tokens
 * with it, so the local backend never uses it unless LOCAL_JWT_SECRET names it explicitly (and
 * then only on a loopback address: core/server.ts).
 */
export const DEFAULT_LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'

/** Issued 2023, expires 2032: long-lived like a project's anon key. */
const KEY_EXPIRY = 1983812996

const apiKey = (role: 'anon' | 'service_role', secret: string) => signJwt({ iss: 'supabase-demo', role, exp: KEY_EXPIRY }, secret)

/** The demo keys signed with the demo secret; valid only against a server started with LOCAL_JWT_SECRET set to it. */
export const LOCAL_ANON_KEY = await apiKey('anon', DEFAULT_LOCAL_JWT_SECRET)
export const LOCAL_SERVICE_ROLE_KEY = await apiKey('service_role', DEFAULT_LOCAL_JWT_SECRET)

export interface LocalKeys {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
}

const MIN_SECRET_LENGTH = 32

/** Where a data folder keeps its signing secret: beside it, `.local-data/db` → `.local-data/db-jwt-secret`. */
export const jwtSecretFileFor = (dataDir: string): string => `${dataDir.replace(/[\\/]+$/, '')}-jwt-secret`

/** Where a data folder keeps the key that seals custodial private keys: `.local-data/db` → `.local-data/db-custodial-key`. */
export const custodialKeyFileFor = (dataDir: string): string => `${dataDir.replace(/[\\/]+$/, '')}-custodial-key`

/**
 * The data folder's own secret, made on first use: 32 random bytes, readable by the owner only.
 * Written under another name and linked into place, so two servers starting on one new folder
 * agree on a single secret and neither reads a half-written file.
 */
export async function folderJwtSecret(dataDir: string): Promise<string> {
  return folderSecret(jwtSecretFileFor(dataDir))
}

/**
 * The data folder's custodial key (see functions/_shared/custodial-keys.ts): a 0600 file beside the
 * folder, never in the database, so a copy of the database alone opens no wallet.
 */
export async function folderCustodialKeys(dataDir: string): Promise<CustodialKeys> {
  const file = custodialKeyFileFor(dataDir)
  const secret = await folderSecret(file)
  try {
    return await custodialKeys(secret)
  } catch (error) {
    throw new Error(
      `${file}: ${(error as Error).message}. Without it the custodial wallets in this folder cannot sign; restore it from a backup`,
    )
  }
}

async function folderSecret(file: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true })
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  await writeFile(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 })
  try {
    await link(draft, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    await rm(draft, { force: true })
  }
  const secret = (await readFile(file, 'utf8')).trim()
  if (secret.length < MIN_SECRET_LENGTH)
    throw new Error(`${file} holds no usable secret (at least ${MIN_SECRET_LENGTH} characters): delete it and a new one is made`)
  return secret
}

/**
 * The secret a server signs with: the one given (LOCAL_JWT_SECRET), else its data folder's own,
 * else (an in-memory database) a random one that lives as long as the process.
 */
export async function resolveJwtSecret({ jwtSecret, dataDir }: { jwtSecret?: string; dataDir?: string }): Promise<string> {
  if (jwtSecret) return jwtSecret
  if (dataDir) return folderJwtSecret(dataDir)
  return randomBytes(32).toString('base64url')
}

export async function localKeys(jwtSecret: string): Promise<LocalKeys> {
  return { jwtSecret, anonKey: await apiKey('anon', jwtSecret), serviceRoleKey: await apiKey('service_role', jwtSecret) }
}

/**
 * The app's page with this server's anon key in it. The app reads the meta tag (src/backend/config.ts)
 * when it was built without VITE_SUPABASE_ANON_KEY, so one build works with every data folder.
 */
export function withAnonKey(html: string, anonKey: string): string {
  const meta = `<meta name="cube-anon-key" content="${anonKey}">`
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`
}
