import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createBackend, type Backend } from './backend.ts'
import { openDatabase, type Database } from './db.ts'
import { DEFAULT_LOCAL_JWT_SECRET, localKeys, type LocalKeys } from './local-keys.ts'
import { migrate } from './migrate.ts'

export interface LocalServerOptions {
  port?: number
  host?: string
  /** PGlite data folder; ignored when databaseUrl is set. Undefined: in memory. */
  dataDir?: string
  /** Wipe dataDir before opening (LOCAL_DATA_RESET=1). */
  reset?: boolean
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
  close(): Promise<void>
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host)

/** Opens the database, applies bootstrap + migrations, and serves the API (and the app) on one port. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const keys = localKeys(options.jwtSecret)
  const host = options.host ?? '127.0.0.1'
  if (!isLoopback(host) && keys.jwtSecret === DEFAULT_LOCAL_JWT_SECRET) {
    // The default secret is public: anyone who can reach the port could sign tokens for any user.
    throw new Error(`Refusing to listen on ${host} with the public default JWT secret: set LOCAL_JWT_SECRET (and build the app with the matching VITE_SUPABASE_ANON_KEY)`)
  }
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, reset: options.reset })
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  const backend = await createBackend(db, {
    jwtSecret: keys.jwtSecret,
    jwtExpiry: options.jwtExpiry,
    bcryptRounds: options.bcryptRounds,
    adminEmails: new Set([...(options.adminEmails ?? [])].map((e) => e.trim().toLowerCase()).filter(Boolean)),
    emailSignup: options.emailSignup,
  })
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
  // Slow or idle clients must not hold sockets forever.
  server.requestTimeout = 30_000
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
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await db.close()
    },
  }
}

/** Reads the documented environment variables (README, "## Backend"). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalServerOptions {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.LOCAL_DATA_DIR ?? '.local-data/db',
    reset: env.LOCAL_DATA_RESET === '1',
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.LOCAL_JWT_SECRET || undefined,
    jwtExpiry: env.LOCAL_JWT_EXPIRY ? Number(env.LOCAL_JWT_EXPIRY) : undefined,
    bcryptRounds: env.LOCAL_BCRYPT_ROUNDS ? Number(env.LOCAL_BCRYPT_ROUNDS) : undefined,
    adminEmails: (env.LOCAL_ADMIN_EMAILS ?? '').split(','),
    emailSignup: env.LOCAL_EMAIL_SIGNUP !== 'off',
  }
}
