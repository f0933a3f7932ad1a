// The lint toolchain (tools/lint: ESLint and Biome, its own package) is installed by this script.
//
//   node scripts/lint-toolchain.mjs postinstall   after `npm ci`/`npm install`: installs it unless
//       CUBE_SKIP_LINT_INSTALL=1 or NODE_ENV=production (someone who only runs the app), and
//       skips the install when the toolchain already matches its lockfile (a repeated `npm ci`).
//   node scripts/lint-toolchain.mjs ensure        before `npm run lint`/`format`: installs it if it
//       is missing or stale, whatever the variables say, so `npm test` works on any clone.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const lintDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'lint')
const marker = join(lintDir, 'node_modules', '.cube-lockfile-hash')

const lockHash = () =>
  createHash('sha256')
    .update(readFileSync(join(lintDir, 'package-lock.json')))
    .digest('hex')
const installed = () =>
  existsSync(join(lintDir, 'node_modules', 'eslint', 'bin', 'eslint.js')) &&
  existsSync(marker) &&
  readFileSync(marker, 'utf8') === lockHash()

function install() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['ci', '--prefix', lintDir, '--no-audit', '--no-fund'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
  writeFileSync(marker, lockHash())
}

const mode = process.argv[2]
if (mode === 'postinstall') {
  if (process.env.CUBE_SKIP_LINT_INSTALL === '1' || process.env.NODE_ENV === 'production') {
    console.log(
      '[lint] lint toolchain not installed (CUBE_SKIP_LINT_INSTALL=1 or NODE_ENV=production); `npm run lint` installs it when needed.',
    )
  } else if (!installed()) install()
} else if (mode === 'ensure') {
  if (!installed()) {
    console.log('[lint] installing the lint toolchain (tools/lint) first…')
    install()
  }
} else {
  console.error('usage: node scripts/lint-toolchain.mjs postinstall|ensure')
  process.exit(2)
}
