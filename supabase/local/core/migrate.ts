import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './db.ts'

const here = dirname(fileURLToPath(import.meta.url))
export const BOOTSTRAP_FILE = join(here, 'bootstrap.sql')
export const MIGRATIONS_DIR = join(here, '..', '..', 'migrations')

/** A migration's version: the timestamp its file name starts with, as `supabase db push` keys it. */
export const migrationVersion = (file: string): string => /^(\d+)_/.exec(file)?.[1] ?? file

/**
 * Applies bootstrap.sql (what Supabase provides; idempotent, run every time) and then each
 * migration not yet applied, in file-name order, each in its own transaction, exactly as
 * `supabase db push` would. A migration that was edited after being applied is reported instead
 * of silently ignored. Like `supabase db push`, a migration counts as applied when its version was:
 * a database migrated before the migrations were squashed into the baseline (which carries the
 * last squashed version) records the baseline as applied instead of running it again.
 */
export async function migrate(db: Database, migrationsDir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(await readFile(BOOTSTRAP_FILE, 'utf8'))
  await db.exec(
    `
    create schema if not exists local_meta;
    create table if not exists local_meta.migrations (name text primary key, checksum text not null, applied_at ` +
      `timestamptz not null default now());
    revoke all on schema local_meta from public;
  `,
  )
  const applied = new Map(
    (await db.query<{ name: string; checksum: string }>('select name, checksum from local_meta.migrations')).rows.map((r) => [
      r.name,
      r.checksum,
    ]),
  )
  const appliedVersions = new Set([...applied.keys()].map(migrationVersion))
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort()
  const ran: string[] = []
  for (const file of files) {
    const sql = await readFile(join(migrationsDir, file), 'utf8')
    const checksum = createHash('sha256').update(sql).digest('hex')
    const previous = applied.get(file)
    if (previous === undefined && appliedVersions.has(migrationVersion(file))) {
      await db.query('insert into local_meta.migrations (name, checksum) values ($1, $2)', [file, checksum])
      continue
    }
    if (previous !== undefined) {
      if (previous !== checksum)
        console.warn(`migration ${file} changed after it was applied; reset the data folder (LOCAL_DATA_RESET=1) to re-apply it`)
      continue
    }
    await db.exec(
      `begin;\n${sql}\n;insert into local_meta.migrations (name, checksum) values ('${file.replace(/'/g, "''")}', '${checksum}');\ncommit;`,
    )
    ran.push(file)
  }
  return ran
}
