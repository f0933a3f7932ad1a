import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { ISOLATION_HEADERS } from '../../src/config/isolation-headers.ts'
import { appSecurityHeaders } from '../../src/config/security-headers.ts'
import { optionsFromEnv } from './core/options.ts'
import { startLocalServer } from './core/server.ts'
import { staticFiles } from './core/static-files.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './demo-seed.ts'

// `npm start` / Playwright's webServer: the local Supabase (auth, rest, functions) and the built
// app on one port. Environment variables are documented in README.md, "## Backend".
const here = dirname(fileURLToPath(import.meta.url))
const distDir = process.env.DIST_DIR ?? join(here, '..', '..', 'dist')

const local = await startLocalServer({
  ...optionsFromEnv(),
  fallback: staticFiles(distDir, { ...ISOLATION_HEADERS, ...appSecurityHeaders() }),
})
console.log(
  `CUBE Music on ${local.url} (backend: ` +
    `${local.db.kind === 'pglite' ? `PGlite in ${optionsFromEnv().dataDir}` : 'PostgreSQL from DATABASE_URL'}; ` +
    `storage files in ${local.storageDir})`,
)

// `npm run demo`: the same server, filled once with demo accounts and their activity.
if (process.env.LOCAL_DEMO === '1') {
  try {
    const seeded = await seedDemo(local.url, local.keys.anonKey)
    console.log(seeded ? `Demo content added: log in as ${DEMO_ACCOUNTS[0].email} / ${DEMO_PASSWORD}` : 'Demo content already there')
  } catch (error) {
    console.error('Could not add the demo content (the app still runs):', error instanceof Error ? error.message : error)
  }
}

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  local.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
process.on('SIGHUP', stop)

// Stopping `npm start` by its PID must not leave the server behind: when whatever started us goes
// away without passing the signal on (a shell between npm and node does not), we are re-parented,
// and stop too.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) stop()
}, 500).unref()
