import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BOOTSTRAP_FILE, MIGRATIONS_DIR } from './migrate.ts'

// A migrated cluster, kept on disk and keyed by the exact bootstrap and migrations that made it: a
// fresh PGlite data folder (a test server, a reset) loads it in about a second instead of running
// initdb and every migration again. migrate() still runs afterwards and verifies each checksum, so
// a stale file could never be used silently; a changed migration simply makes a new key.

/** sha256 over bootstrap.sql and every migration's name and text, in the order migrate() applies them. */
export async function migrationsKey(migrationsDir = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash('sha256').update(await readFile(BOOTSTRAP_FILE))
  for (const file of (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort()) {
    hash.update(`\0${file}\0`).update(await readFile(join(migrationsDir, file)))
  }
  return hash.digest('hex').slice(0, 32)
}

const snapshotFile = (cacheDir: string, key: string) => join(cacheDir, `migrated-${key}.tar`)

/** The cached dump for `key`, if one was saved. */
export async function readSnapshot(cacheDir: string, key: string): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(snapshotFile(cacheDir, key))])
  } catch {
    return undefined
  }
}

/** Saves a dump under `key`; written aside and renamed, so a concurrent reader never sees half a file. */
export async function saveSnapshot(cacheDir: string, key: string, dump: Blob): Promise<void> {
  await mkdir(cacheDir, { recursive: true })
  const partial = `${snapshotFile(cacheDir, key)}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, snapshotFile(cacheDir, key))
}
