import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBackend, type Backend } from './backend.ts'
import { openDatabase, type Database } from './db.ts'
import { DEFAULT_LOCAL_JWT_SECRET, folderCustodialKeys, localKeys, resolveJwtSecret, type LocalKeys } from './local-keys.ts'
import { migrate } from './migrate.ts'
import { migrationsKey, readSnapshot, saveSnapshot } from './snapshot-cache.ts'
import { embeddedMinters, recordChainRpcUrl, type EmbeddedChain } from '../chain/embedded-minters.ts'
import { adminEmailSet, storageDirFor, type LocalServerOptions } from './options.ts'
import { smtpMailer } from '../auth/mailer.ts'
import { startRealtime, type RealtimeService } from '../realtime/service.ts'

export interface LocalServer {
  url: string
  port: number
  keys: LocalKeys
  db: Database
  backend: Backend
  /** Realtime's websocket (postgres_changes) on the same port. */
  realtime: RealtimeService
  server: Server
  /** Where Storage keeps object bytes (see storage/files.ts for the layout). */
  storageDir: string
  /** The in-process EVM chain (options.embeddedChain), with the NFT contract deployed. */
  chain: EmbeddedChain | undefined
  close(): Promise<void>
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host)

/** Opens the database, applies bootstrap + migrations, and serves the API (and the app) on one port. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const keys = await localKeys(await resolveJwtSecret(options))
  const host = options.host ?? '127.0.0.1'
  if (!isLoopback(host) && keys.jwtSecret === DEFAULT_LOCAL_JWT_SECRET) {
    // The default secret is public: anyone who can reach the port could sign tokens for any user.
    throw new Error(
      `Refusing to listen on ${host} with the public demo JWT secret: unset LOCAL_JWT_SECRET (the data folder then gets ` +
        `its own) or set it to a secret of your own`,
    )
  }
  // A new PGlite data folder may start from a cached migrated cluster (snapshot-cache.ts).
  const cacheDir = !options.databaseUrl && !options.pgliteSnapshot ? options.snapshotCacheDir : undefined
  const fresh = cacheDir !== undefined && (options.reset || !options.dataDir || !existsSync(join(options.dataDir, 'PG_VERSION')))
  const cacheKey = fresh ? await migrationsKey() : undefined
  const cached = cacheKey ? await readSnapshot(cacheDir!, cacheKey) : undefined
  const db = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    reset: options.reset,
    pgliteSnapshot: options.pgliteSnapshot ?? cached,
  })
  const givenStorageDir = options.storageDir ?? (options.dataDir ? storageDirFor(options.dataDir) : undefined)
  const storageDir = givenStorageDir ?? (await mkdtemp(join(tmpdir(), 'cube-storage-')))
  const dropStorage = async () => {
    if (!givenStorageDir) await rm(storageDir, { recursive: true, force: true })
  }
  // The files belong to the rows: wiped with the PGlite data, kept when the rows are elsewhere.
  if (options.reset && givenStorageDir && db.kind === 'pglite') await rm(storageDir, { recursive: true, force: true })
  let backend: Backend
  let realtime: RealtimeService
  let chain: EmbeddedChain | undefined
  // Links in mails lead to the configured site, else to this server once it listens.
  let ownUrl = options.siteUrl?.replace(/\/+$/, '') ?? 'http://127.0.0.1'
  try {
    await migrate(db)
    if (cacheKey && !cached && db.dump) await saveSnapshot(cacheDir!, cacheKey, await db.dump())
    const chains = options.embeddedChain ? await embeddedMinters(db) : undefined
    chain = chains?.chain
    backend = await createBackend(db, {
      jwtSecret: keys.jwtSecret,
      storageDir,
      jwtExpiry: options.jwtExpiry,
      bcryptRounds: options.bcryptRounds,
      adminEmails: adminEmailSet(options.adminEmails),
      emailSignup: options.emailSignup,
      minterFor: chains?.minterFor,
      chainRpc: chains?.chain.rpc,
      chainRpcRateLimit: options.chainRpcRateLimit,
      mfaLockout: options.mfaLockout,
      signupRateLimit: options.signupRateLimit,
      walletLinkRateLimit: options.walletLinkRateLimit,
      emailConfirm: options.emailConfirm,
      sendMail: options.smtpUrl ? smtpMailer(options.smtpUrl, options.mailFrom) : undefined,
      siteUrl: () => ownUrl,
      mailFrequencySeconds: options.mailFrequencySeconds,
      mailRateLimit: options.mailRateLimit,
      custodialKeys: options.dataDir ? await folderCustodialKeys(options.dataDir) : undefined,
    })
    realtime = await startRealtime(db, keys.jwtSecret)
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
      .then(async (handled) => {
        if (handled || (await realtime.handleRequest(req, res))) return
        if (options.fallback) return options.fallback(req, res, keys)
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not found"}')
      })
      .catch(fail)
  })
  server.on('upgrade', (req, socket, head) => {
    if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
  })
  // Slow or idle clients must not hold sockets forever. requestTimeout covers the whole request
  // body, and a 256 MiB Storage upload over a slow link needs minutes, so it is generous here;
  // the backend still gives other API requests 30 s for their body (backend.ts) and cuts off an
  // upload that sends nothing for 30 s (storage/files.ts).
  server.requestTimeout = 15 * 60_000
  server.headersTimeout = 15_000
  // Node closes an idle keep-alive socket after 5 s; a client that reuses it at that moment gets
  // ECONNRESET (Playwright's request API did, under load). Gateways in front of hosted Supabase keep
  // idle connections for about a minute, so this does too.
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const shownHost = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1'
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`
  if (!options.siteUrl) ownUrl = url
  if (chain) await recordChainRpcUrl(db, url)
  return {
    url,
    port,
    keys,
    db,
    backend,
    realtime,
    server,
    storageDir,
    chain,
    async close() {
      await realtime.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await db.close()
      await dropStorage()
      await chain?.close()
    },
  }
}
