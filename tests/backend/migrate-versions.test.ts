import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openPglite } from '../../supabase/local/core/db.ts'
import { migrate } from '../../supabase/local/core/migrate.ts'

// Migrations are squashed into a baseline that carries the last squashed version: a database that
// applied the old files must record the baseline as applied, not run it again (as `supabase db push`
// keys applied migrations by version).
const root = mkdtempSync(join(tmpdir(), 'cube-migrate-versions-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('migrate() counts a migration applied by its version', () => {
  it('skips a baseline whose version a database already applied, and applies what comes after it', async () => {
    const before = join(root, 'before')
    const after = join(root, 'after')
    const write = (dir: string, file: string, sql: string) => writeFileSync(join(dir, file), sql)
    mkdirSync(before)
    mkdirSync(after)
    write(before, '20990101000000_first.sql', 'create table public.t (x int);')
    write(before, '20990102000000_second.sql', 'alter table public.t add column y int;')
    // The squash: both in one baseline at the last version, then a change made since.
    write(after, '20990102000000_baseline.sql', 'create table public.t (x int, y int);')
    write(after, '20990103000000_third.sql', 'alter table public.t add column z int;')

    const db = await openPglite(undefined)
    try {
      expect(await migrate(db, before)).toEqual(['20990101000000_first.sql', '20990102000000_second.sql'])
      expect(await migrate(db, after)).toEqual(['20990103000000_third.sql'])
      const columns = await db.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_name = 't' order by ordinal_position",
      )
      expect(columns.rows.map((r) => r.column_name)).toEqual(['x', 'y', 'z'])
      const recorded = await db.query<{ name: string }>('select name from local_meta.migrations order by name')
      expect(recorded.rows.map((r) => r.name)).toContain('20990102000000_baseline.sql')
      expect(await migrate(db, after)).toEqual([])
    } finally {
      await db.close()
    }
  }, 60_000)
})
