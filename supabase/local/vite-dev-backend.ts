import { rm } from 'node:fs/promises'
import type { Plugin } from 'vite'
import { createBackend } from './core/backend.ts'
import { openDatabase } from './core/db.ts'
import { localJwtSecret } from './core/local-keys.ts'
import { migrate } from './core/migrate.ts'
import { adminEmailSet, optionsFromEnv, storageDirFor } from './core/options.ts'
import { startRealtime } from './realtime/service.ts'

/**
 * `npm run dev`: the same local Supabase that `npm start` serves, mounted in Vite's dev server so
 * the app's default backend URL (its own origin) works with hot reload too.
 */
export function localBackendDevPlugin(): Plugin {
  return {
    name: 'cube-local-backend',
    apply: 'serve',
    async configureServer(server) {
      const env = optionsFromEnv()
      const dataDir = process.env.LOCAL_DATA_DIR ?? '.local-data/dev'
      const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir, reset: env.reset })
      const storageDir = env.storageDir ?? storageDirFor(dataDir)
      if (env.reset && db.kind === 'pglite') await rm(storageDir, { recursive: true, force: true })
      await migrate(db)
      const backend = await createBackend(db, {
        jwtSecret: localJwtSecret(env.jwtSecret),
        storageDir,
        adminEmails: adminEmailSet(env.adminEmails),
        emailSignup: env.emailSignup,
      })
      server.middlewares.use((req, res, next) => {
        backend.handle(req, res).then((handled) => (handled ? undefined : next()), next)
      })
      const realtime = await startRealtime(db, localJwtSecret(env.jwtSecret))
      // Vite's own HMR socket shares the server: only Realtime's path is taken here.
      server.httpServer?.on('upgrade', (req, socket, head) => void realtime.handleUpgrade(req, socket, head))
      server.httpServer?.once('close', () => void realtime.close().then(() => db.close()))
    },
  }
}
