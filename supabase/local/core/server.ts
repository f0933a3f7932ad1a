import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBackend, type Backend } from './backend.ts'
import { openDatabase, type Database } from './db.ts'
import { DEFAULT_LOCAL_JWT_SECRET, localKeys, type LocalKeys } from './local-keys.ts'
import { migrate } from './migrate.ts'

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
  jwtSecret?: string
  jwtExpiry?: number
  bcryptRounds?: number
  adminEmails?: Iterable<string>
  emailSignup?: boolean
  /** Serves everything the backend does not (the built app). */
  fallback?: (req: IncomingMessage, res: ServerResponse) => Promise<void>
}

export interface LocalServer {
  url: string
  port: number
  keys: LocalKeys
  db: Database
  backend: Backend
  server: Server
  /** Where Storage keeps object bytes (see storage/files.ts for the layout). */
  storageDir: string
  close(): Promise<void>
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host)

/** Opens the database, applies bootstrap + migrations, and serves the API (and the app) on one port. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const keys = await localKeys(options.jwtSecret)
  const host = options.host ?? '127.0.0.1'
  if (!isLoopback(host) && keys.jwtSecret === DEFAULT_LOCAL_JWT_SECRET) {
    // The default secret is public: anyone who can reach the port could sign tokens for any user.
    throw new Error(`Refusing to listen on ${host} with the public default JWT secret: set LOCAL_JWT_SECRET (and build the app with the matching VITE_SUPABASE_ANON_KEY)`)
  }
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, reset: options.reset })
  const givenStorageDir = options.storageDir ?? (options.dataDir ? storageDirFor(options.dataDir) : undefined)
  const storageDir = givenStorageDir ?? (await mkdtemp(join(tmpdir(), 'cube-storage-')))
  const dropStorage = async () => {
    if (!givenStorageDir) await rm(storageDir, { recursive: true, force: true })
  }
  // The files belong to the rows: wiped with the PGlite data, kept when the rows are elsewhere.
  if (options.reset && givenStorageDir && db.kind === 'pglite') await rm(storageDir, { recursive: true, force: true })
  let backend: Backend
  try {
    await migrate(db)
    backend = await createBackend(db, {
      jwtSecret: keys.jwtSecret,
      storageDir,
    jwtExpiry: options.jwtExpiry,
    bcryptRounds: options.bcryptRounds,
    adminEmails: new Set([...(options.adminEmails ?? [])].map((e) => e.trim().toLowerCase()).filter(Boolean)),
    emailSignup: options.emailSignup,
    })
  } catch (error) {
    await db.close()
    await dropStorage()
    throw error
  }
  const server = createServer((req, res) => {
    const fail = (error: unknown) => {
      console.error(error)
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end('{"message":"Internal error"}')
    }
    backend
      .handle(req, res)
      .then((handled) => {
        if (handled) return
        if (options.fallback) return options.fallback(req, res)
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not found"}')
      })
      .catch(fail)
  })
  // Slow or idle clients must not hold sockets forever. requestTimeout covers the whole request
  // body, and a 256 MiB Storage upload over a slow link needs minutes, so it is generous here;
  // the backend still gives other API requests 30 s for their body (backend.ts) and cuts off an
  // upload that sends nothing for 30 s (storage/files.ts).
  server.requestTimeout = 15 * 60_000
  server.headersTimeout = 15_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const shownHost = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1'
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    port,
    keys,
    db,
    backend,
    server,
    storageDir,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await db.close()
      await dropStorage()
    },
  }
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
    jwtSecret: env.LOCAL_JWT_SECRET || undefined,
    jwtExpiry: env.LOCAL_JWT_EXPIRY ? Number(env.LOCAL_JWT_EXPIRY) : undefined,
    bcryptRounds: env.LOCAL_BCRYPT_ROUNDS ? Number(env.LOCAL_BCRYPT_ROUNDS) : undefined,
    adminEmails: (env.LOCAL_ADMIN_EMAILS ?? '').split(','),
    emailSignup: env.LOCAL_EMAIL_SIGNUP !== 'off',
  }
}
