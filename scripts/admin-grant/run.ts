import { openDatabase } from '../../supabase/local/core/db.ts'
import { optionsFromEnv } from '../../supabase/local/core/options.ts'
import { GRANT_MESSAGES, grantAdmin } from './grant.ts'

// `npm run admin:grant -- you@example.com`: the server-side way to make an administrator, on the
// database the server uses (DATABASE_URL, else the PGlite folder LOCAL_DATA_DIR).

const email = process.argv[2]
if (!email || !email.includes('@')) {
  console.error('Usage: npm run admin:grant -- you@example.com')
  process.exit(2)
}
const env = optionsFromEnv()
if (!env.databaseUrl) {
  // PGlite's data folder has one user at a time: a second opener while the server runs would corrupt it.
  const running = await fetch(`http://127.0.0.1:${env.port}/auth/v1/health`, { signal: AbortSignal.timeout(1000) }).then(
    () => true,
    () => false,
  )
  if (running) {
    console.error(
      `A server is running on port ${env.port} with the PGlite folder ${env.dataDir}: stop it (Ctrl+C), run this again, then start it.`,
    )
    process.exit(1)
  }
}
const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
try {
  const outcome = await grantAdmin(db, email)
  console.log(GRANT_MESSAGES[outcome](email.trim().toLowerCase()))
  process.exitCode = outcome === 'granted' || outcome === 'already' ? 0 : 1
} finally {
  await db.close()
}
