import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from '../../../supabase/local/core/db.ts'
import { migrate } from '../../../supabase/local/core/migrate.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data-folder dump taken right after bootstrap + every migration (see startTestServer). */
    pgliteSnapshotFile: string
  }
}

/**
 * Once per `vitest run`: a new PGlite cluster (initdb in WebAssembly, ~2 s) with bootstrap.sql and
 * every migration applied, dumped to a file. Each in-memory test server loads it (~0.4 s) instead of
 * repeating the same initdb and migrations from nothing; migrate() still runs there and verifies
 * every checksum. The suites that test migrating itself (a fresh or persistent data folder, a
 * restart, PostgreSQL) start from an empty cluster as before.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'cube-pglite-snapshot-'))
  const file = join(dir, 'migrated.tar')
  const pg = await PGlite.create()
  try {
    // What migrate() needs of the server's Database (db.ts opens PGlite the same way).
    const db = {
      exec: async (sql: string) => void (await pg.exec(sql)),
      query: async (sql: string, params?: unknown[]) => ({ rows: (await pg.query(sql, params)).rows }),
    } as unknown as Database
    await migrate(db)
    const dump = await pg.dumpDataDir('none')
    await writeFile(file, Buffer.from(await dump.arrayBuffer()))
  } finally {
    await pg.close()
  }
  project.provide('pgliteSnapshotFile', file)
  return async () => {
    await rm(dir, { recursive: true, force: true })
  }
}
