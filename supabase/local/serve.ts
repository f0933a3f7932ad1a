import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import { ISOLATION_HEADERS } from '../../src/config/isolation-headers.ts'
import { appSecurityHeaders } from '../../src/config/security-headers.ts'
import { optionsFromEnv } from './core/options.ts'
import { startLocalServer } from './core/server.ts'
import { staticFiles } from './core/static-files.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './demo-seed.ts'
import { startMailCatcher } from './mail-catcher/catcher.ts'

// `npm start` / Playwright's webServer: the local Supabase (auth, rest, functions) and the built
// app on one port. Environment variables are documented in README.md, "## Backend".
const here = dirname(fileURLToPath(import.meta.url))
const distDir = process.env.DIST_DIR ?? join(here, '..', '..', 'dist')

// Auth mail goes out through SMTP, as on hosted Supabase: to LOCAL_SMTP_URL when it is set, else
// to the local mail catcher started here, whose mailbox page shows every mail sent.
const env = optionsFromEnv()
const mailbox = env.smtpUrl ? undefined : await startMailCatcher({ httpPort: Number(process.env.LOCAL_MAILBOX_PORT ?? 54324) })
const local = await startLocalServer({
  ...env,
  smtpUrl: env.smtpUrl ?? mailbox?.smtpUrl,
  fallback: staticFiles(distDir, { ...ISOLATION_HEADERS, ...appSecurityHeaders() }),
})
console.log(
  `CUBE Music on ${local.url} (backend: ` +
    `${local.db.kind === 'pglite' ? `PGlite in ${optionsFromEnv().dataDir}` : 'PostgreSQL from DATABASE_URL'}; ` +
    `storage files in ${local.storageDir})`,
)
console.log(mailbox ? `Mailbox (every mail the server sends): ${mailbox.url}` : `Auth mail goes to the SMTP server in LOCAL_SMTP_URL`)
if (!env.emailConfirm) console.log('LOCAL_EMAIL_CONFIRM=off: sign-ups are confirmed without mail')
if (!env.emailConfirm && [...(env.adminEmails ?? [])].some((e) => e.trim()))
  console.warn('LOCAL_ADMIN_EMAILS with LOCAL_EMAIL_CONFIRM=off: whoever signs up first with those addresses becomes administrator')

// `npm run demo`: the same server, filled once with demo accounts and their activity.
if (process.env.LOCAL_DEMO === '1') {
  try {
    const seeded = await seedDemo(local.url, local.keys.anonKey, async (email) => {
      await local.db.query('update auth.users set email_confirmed_at = now(), confirmation_token = null where email = $1', [email])
    })
    console.log(seeded ? `Demo content added: log in as ${DEMO_ACCOUNTS[0].email} / ${DEMO_PASSWORD}` : 'Demo content already there')
  } catch (error) {
    console.error('Could not add the demo content (the app still runs):', error instanceof Error ? error.message : error)
  }
}

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  Promise.all([local.close(), mailbox?.close()]).then(
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
