import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/core/db.ts'
import { catalogSnapshot, compareSnapshots, type Snapshot } from '../../scripts/db-schema/catalog.ts'
import { applyBootstrap, applyMigrations, applySchemaFiles, throwaway, type Throwaway } from '../../scripts/db-schema/throwaway.ts'

// supabase/schemas/ is the database as it is; supabase/migrations/ is how deployments got there.
// Both must build the same database: every table, column, constraint, index, policy, trigger,
// function (body, security, search_path, volatility), privilege, RLS flag and configuration row.

let dbs: Throwaway
let migrated: Database
let fromSchemas: Database
let migratedSnapshot: Snapshot

beforeAll(async () => {
  dbs = await throwaway()
  ;[migrated, fromSchemas] = await Promise.all([dbs.create('drift_migrations'), dbs.create('drift_schemas')])
  // Roles are cluster-wide: bootstrap.sql creates them once before both databases are built at once.
  await applyBootstrap(fromSchemas)
  await Promise.all([applyMigrations(migrated), applySchemaFiles(fromSchemas)])
  migratedSnapshot = await catalogSnapshot(migrated)
}, 120_000)
afterAll(() => dbs?.close())

/** The differences once `change` ran on the schema-files database (rolled back afterwards). */
async function differencesAfter(change: string): Promise<string[]> {
  let differences: string[] = []
  await fromSchemas
    .transaction(async (tx) => {
      await tx.query(change)
      differences = compareSnapshots(migratedSnapshot, await catalogSnapshot(tx))
      throw new Error('roll back')
    })
    .catch((e: Error) => {
      if (e.message !== 'roll back') throw e
    })
  return differences
}

describe('the schema files and the migrations build the same database', () => {
  it('has no difference between them', async () => {
    const differences = compareSnapshots(migratedSnapshot, await catalogSnapshot(fromSchemas))
    expect(differences, `supabase/schemas/ and supabase/migrations/ disagree:\n${differences.join('\n')}`).toEqual([])
  })

  it('names a changed function body, a new policy, a new column and a revoked grant', async () => {
    const differences = await differencesAfter(`
      create or replace function public.remix_rules() returns json language sql immutable set search_path = ''
        as $$ select json_build_object('cost', 49) $$;
      create policy "everyone reads everything" on public.songs for select to anon using (true);
      alter table public.playlists add column colour text;
      revoke execute on function public.listen_start(text, text, boolean) from authenticated;
    `)
    const named = differences.map((d) => d.split(/:| differs/)[0])
    expect(named).toEqual(
      expect.arrayContaining([
        'function remix_rules()',
        'policy public.songs everyone reads everything',
        'column playlists.colour',
        'function listen_start(text,text,boolean)',
      ]),
    )
    expect(differences.find((d) => d.startsWith('function remix_rules()'))).toMatch(/'cost', 50\).*\n.*'cost', 49\)/)
  })

  it('fails when a new migration changes what the schema files do not', async () => {
    // A migration someone wrote without folding it into supabase/schemas/, applied as migrate() would.
    let differences: string[] = []
    const schemasSnapshot = await catalogSnapshot(fromSchemas)
    await migrated
      .transaction(async (tx) => {
        await tx.query('drop policy "songs: visible unless the creator is private" on public.songs')
        differences = compareSnapshots(await catalogSnapshot(tx), schemasSnapshot)
        throw new Error('roll back')
      })
      .catch((e: Error) => {
        if (e.message !== 'roll back') throw e
      })
    expect(differences).toEqual(['policy public.songs songs: visible unless the creator is private: only in the schema files'])
  })
})
