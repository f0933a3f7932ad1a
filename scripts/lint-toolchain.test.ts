import { spawnSync } from 'node:child_process'
import { expect, it } from 'vitest'

// Someone who only runs the app can skip the lint toolchain's install; a repeated install is a
// no-op; `npm run lint` (and so `npm test`) installs it when it is missing.

const run = (mode: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['scripts/lint-toolchain.mjs', mode], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 })

it('postinstall skips the lint toolchain when CUBE_SKIP_LINT_INSTALL=1 or NODE_ENV=production, saying so', () => {
  for (const env of [{ CUBE_SKIP_LINT_INSTALL: '1' }, { NODE_ENV: 'production' }] as Record<string, string>[]) {
    const r = run('postinstall', env)
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('lint toolchain not installed')
  }
})

it('postinstall and ensure do nothing when the toolchain already matches its lockfile', () => {
  // The toolchain is installed here (the lint step needs it); neither call runs npm again.
  const ensure = run('ensure')
  expect(ensure.status).toBe(0)
  expect(ensure.stdout).toBe('')
  const again = run('postinstall')
  expect(again.status).toBe(0)
  expect(again.stdout).toBe('')
})

it('package.json wires it: postinstall may skip, lint and format install it if missing', async () => {
  const { scripts } = (await import('../package.json', { with: { type: 'json' } })).default as { scripts: Record<string, string> }
  expect(scripts.postinstall).toBe('node scripts/lint-toolchain.mjs postinstall')
  expect(scripts.lint).toMatch(/^node scripts\/lint-toolchain\.mjs ensure && /)
  expect(scripts.format).toMatch(/^node scripts\/lint-toolchain\.mjs ensure && /)
})

it("the README's app-only install keeps what npm start needs, and calls the allowScripts notice harmless", async () => {
  const readme = (await import('node:fs')).readFileSync('README.md', 'utf8').replace(/\s+/g, ' ')
  expect(readme).toContain('`CUBE_SKIP_LINT_INSTALL=1 npm ci && npm start` skips it')
  // npm omits devDependencies under NODE_ENV=production, and the build needs Vite from them: the
  // README may warn against that install, never offer it as a way to run the app.
  const { devDependencies } = (await import('../package.json', { with: { type: 'json' } })).default as {
    devDependencies: Record<string, string>
  }
  expect(devDependencies).toHaveProperty('vite')
  expect(readme).not.toMatch(/\(or `NODE_ENV=production`\)/)
  expect(readme).toContain('Do not use `NODE_ENV=production npm ci` for this')
  expect(readme).toMatch(/not yet covered by allowScripts": that notice is harmless/)
})
