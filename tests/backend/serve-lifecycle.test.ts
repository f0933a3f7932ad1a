import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { migrationsKey, saveSnapshot } from '../../supabase/local/core/snapshot-cache.ts'

// Stopping `npm start` by its PID left the server running (a shell and tsx sat
// between npm and the server; neither passed the signal on). `npm run serve` is the same command
// without the build. Killed politely or not at all politely, npm takes the server with it.

const root = mkdtempSync(join(tmpdir(), 'cube-serve-'))
writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title>')
afterAll(() => rmSync(root, { recursive: true, force: true }))
// The servers start from the suite's migrated cluster (global-setup.ts), put where their snapshot
// cache looks: on a fresh clone nothing else has cached one yet, and each would migrate from nothing.
const cacheDir = join(root, 'snapshots')
beforeAll(async () => {
  await saveSnapshot(cacheDir, await migrationsKey(), new Blob([await readFile(inject('pgliteSnapshotFile'))]))
})

let nextPort = 18_600 + (process.pid % 200)

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) })
    return true
  } catch {
    return false
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 200))
  }
  return false
}

async function startNpmServe(name: string) {
  const port = nextPort++
  const npm = spawn('npm', ['run', '-s', 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      LOCAL_DATA_DIR: join(root, name),
      DIST_DIR: root,
      LOCAL_CHAIN: 'off',
      LOCAL_SNAPSHOT_CACHE: cacheDir,
      LOCAL_BCRYPT_ROUNDS: '4',
    },
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}/auth/v1/health`
  expect(await until(() => answers(url), 90_000), 'the server started').toBe(true)
  return { npm, url }
}

// The two servers start side by side: most of each test is waiting for its server to answer.
describe.concurrent('npm run serve / npm start', () => {
  it('SIGTERM to npm stops the server', async () => {
    const { npm, url } = await startNpmServe('term')
    npm.kill('SIGTERM')
    expect(await until(async () => !(await answers(url)), 15_000)).toBe(true)
  }, 120_000)

  it('SIGKILL to npm (no signal passed on) stops the orphaned server too', async () => {
    const { npm, url } = await startNpmServe('kill')
    npm.kill('SIGKILL')
    expect(await until(async () => !(await answers(url)), 15_000)).toBe(true)
  }, 120_000)
})
