import { rm } from 'node:fs/promises'
import type { Plugin } from 'vite'
import { createBackend } from './core/backend.ts'
import { openDatabase } from './core/db.ts'
import { folderCustodialKeys, localKeys, resolveJwtSecret, withAnonKey } from './core/local-keys.ts'
import { migrate } from './core/migrate.ts'
import { adminEmailSet, optionsFromEnv, storageDirFor } from './core/options.ts'
import { smtpMailer } from './auth/mailer.ts'
import { startMailCatcher } from './mail-catcher/catcher.ts'
import { startRealtime } from './realtime/service.ts'

/**
 * `npm run dev`: the same local Supabase that `npm start` serves, mounted in Vite's dev server so
 * the app's default backend URL (its own origin) works with hot reload too.
 */
export function localBackendDevPlugin(): Plugin {
  let anonKey: string | undefined
  return {
    name: 'cube-local-backend',
    apply: 'serve',
    // The page carries the data folder's anon key, as `npm start` serves it (core/static-files.ts).
    transformIndexHtml: (html) => (anonKey ? withAnonKey(html, anonKey) : html),
    async configureServer(server) {
      const env = optionsFromEnv()
      const dataDir = process.env.LOCAL_DATA_DIR ?? '.local-data/dev'
      const keys = await localKeys(await resolveJwtSecret({ jwtSecret: env.jwtSecret, dataDir }))
      anonKey = keys.anonKey
      const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir, reset: env.reset })
      const storageDir = env.storageDir ?? storageDirFor(dataDir)
      if (env.reset && db.kind === 'pglite') await rm(storageDir, { recursive: true, force: true })
      await migrate(db)
      // Auth mail goes to LOCAL_SMTP_URL, else to a local mail catcher, as under `npm start`.
      const mailbox = env.smtpUrl ? undefined : await startMailCatcher({ httpPort: Number(process.env.LOCAL_MAILBOX_PORT ?? 54324) })
      if (mailbox) server.config.logger.info(`  Mailbox (every mail the server sends): ${mailbox.url}`)
      const smtpUrl = env.smtpUrl ?? mailbox?.smtpUrl
      const backend = await createBackend(db, {
        jwtSecret: keys.jwtSecret,
        storageDir,
        adminEmails: adminEmailSet(env.adminEmails),
        emailSignup: env.emailSignup,
        signupRateLimit: env.signupRateLimit,
        walletLinkRateLimit: env.walletLinkRateLimit,
        emailConfirm: env.emailConfirm,
        sendMail: smtpUrl ? smtpMailer(smtpUrl, env.mailFrom) : undefined,
        siteUrl: () => env.siteUrl ?? server.resolvedUrls?.local[0]?.replace(/\/+$/, '') ?? 'http://localhost:5173',
        mailRateLimit: env.mailRateLimit,
        custodialKeys: await folderCustodialKeys(dataDir),
      })
      server.middlewares.use((req, res, next) => {
        backend.handle(req, res).then((handled) => (handled ? undefined : next()), next)
      })
      const realtime = await startRealtime(db, keys.jwtSecret)
      server.middlewares.use((req, res, next) => {
        realtime.handleRequest(req, res).then((handled) => (handled ? undefined : next()), next)
      })
      // Vite's own HMR socket shares the server: only Realtime's path is taken here.
      server.httpServer?.on('upgrade', (req, socket, head) => void realtime.handleUpgrade(req, socket, head))
      server.httpServer?.once('close', () => void Promise.all([realtime.close(), mailbox?.close()]).then(() => db.close()))
    },
  }
}
