import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { migrationsKey, readSnapshot, saveSnapshot } from '../../supabase/local/core/snapshot-cache.ts'

// LOCAL_SNAPSHOT_CACHE: a new PGlite data folder starts from a cached migrated cluster. What must
// hold: a fresh folder starts from the dump saved under the migrations' key (a marker put into the
// dump shows up), migrate() still finds every migration recorded, data written there persists
// across a restart of that folder, and a different set of migrations never matches the key.

const root = await mkdtemp(join(tmpdir(), 'cube-snapshot-cache-'))
const cacheDir = join(root, 'cache')
afterAll(() => rm(root, { recursive: true, force: true }))

const start = (dataDir: string, reset: boolean) =>
  startLocalServer({ port: 0, dataDir, reset, snapshotCacheDir: cacheDir, embeddedChain: false, jwtSecret: 'x'.repeat(40) })

describe('migrated-cluster snapshot cache', () => {
  it('a new data folder starts from the cached dump, fully migrated, and keeps its own data across a restart', async () => {
    // The suite's migrated cluster (global-setup.ts) with a marker only a load from the cache can bring.
    const pg = await PGlite.create({ loadDataDir: new Blob([await readFile(inject('pgliteSnapshotFile'))]) })
    await pg.exec("create table local_meta.cache_marker (origin text); insert into local_meta.cache_marker values ('cache')")
    await saveSnapshot(cacheDir, await migrationsKey(), await pg.dumpDataDir('none'))
    await pg.close()

    const dataDir = join(root, 'fresh')
    const server = await start(dataDir, true)
    const marker = await server.db.query('select origin from local_meta.cache_marker')
    const applied = await server.db.query<{ n: number }>('select count(*)::int as n from local_meta.migrations')
    await server.db.exec('create table local_meta.own_data (x int); insert into local_meta.own_data values (7)')
    await server.close()
    expect(marker.rows).toEqual([{ origin: 'cache' }])
    const files = (await readdir(join(import.meta.dirname, '../../supabase/migrations'))).filter((f) => f.endsWith('.sql'))
    expect(applied.rows).toEqual([{ n: files.length }])

    const again = await start(dataDir, false)
    const kept = await again.db.query('select x from local_meta.own_data')
    await again.close()
    expect(kept.rows).toEqual([{ x: 7 }])
  }, 120_000)

  it('the key changes with any migration text or file, so a stale dump is never picked', async () => {
    const dir = await mkdtemp(join(root, 'migrations-'))
    await writeFile(join(dir, '001_a.sql'), 'select 1;')
    const before = await migrationsKey(dir)
    await writeFile(join(dir, '001_a.sql'), 'select 2;')
    const edited = await migrationsKey(dir)
    await writeFile(join(dir, '002_b.sql'), 'select 3;')
    expect(new Set([before, edited, await migrationsKey(dir)]).size).toBe(3)
  })

  it('a saved dump reads back byte for byte; a missing key reads as nothing', async () => {
    const dir = join(root, 'roundtrip')
    await saveSnapshot(dir, 'k1', new Blob([new Uint8Array([1, 2, 3])]))
    expect(new Uint8Array(await (await readSnapshot(dir, 'k1'))!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]))
    expect(await readSnapshot(dir, 'k2')).toBeUndefined()
    expect(await readdir(dir)).toEqual(['migrated-k1.tar'])
  })
})
