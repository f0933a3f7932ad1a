import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/core/db.ts'
import { catalogSnapshot, type Snapshot } from '../../scripts/db-schema/catalog.ts'
import { differencesAfter, diffSnapshots, renderMigration } from '../../scripts/db-schema/diff.ts'
import { readSchemaFiles, SCHEMAS_DIR } from '../../scripts/db-schema/schema-files.ts'
import { applyBootstrap, applyMigrations, applySchemaFiles, throwaway, type Throwaway } from '../../scripts/db-schema/throwaway.ts'

// `npm run db:diff` on a developer's edit of supabase/schemas/: a function body changed and a policy
// added. The migration it writes, applied to the migrated database, must leave no difference.

let dbs: Throwaway
let migrated: Database
let edited: Database
let from: Snapshot
let to: Snapshot
const dir = mkdtempSync(join(tmpdir(), 'cube-schemas-'))

beforeAll(async () => {
  cpSync(SCHEMAS_DIR, dir, { recursive: true })
  const studio = join(dir, 'studio.sql')
  writeFileSync(studio, readFileSync(studio, 'utf8').replace("json_build_object('cost', 50)", "json_build_object('cost', 40)"))
  appendFileSync(
    join(dir, 'collection.sql'),
    '\n-- Public playlists are listed for visitors too.\n' +
      'create policy "public playlists are listed" on public.playlists for select to anon using (is_public);\n',
  )
  dbs = await throwaway()
  ;[migrated, edited] = await Promise.all([dbs.create('diff_migrated'), dbs.create('diff_edited')])
  await applyBootstrap(edited)
  await Promise.all([applyMigrations(migrated), applySchemaFiles(edited, dir)])
  ;[from, to] = await Promise.all([catalogSnapshot(migrated), catalogSnapshot(edited)])
}, 120_000)
afterAll(async () => {
  await dbs?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('db:diff writes the migration from the schema files', () => {
  it('writes the edited function and the new policy, and nothing differs once it is applied', async () => {
    const diff = diffSnapshots(from, to, readSchemaFiles(dir))
    expect(diff.refused).toEqual([])
    const sql = renderMigration('cheaper_remix', diff)
    expect(sql).toContain('create or replace function public.remix_rules() returns json')
    expect(sql).toContain("json_build_object('cost', 40)")
    expect(sql).toContain('drop policy if exists "public playlists are listed" on public.playlists;')
    expect(sql).toContain('create policy "public playlists are listed" on public.playlists for select to anon using (is_public);')
    // The function (its privileges unchanged), then the policy dropped if it exists and created.
    expect(diff.statements).toHaveLength(3)
    expect(await differencesAfter(migrated, sql, to)).toEqual([])
  })

  it('refuses, naming it, a change to an existing table it cannot write safely', async () => {
    let diff: ReturnType<typeof diffSnapshots> | undefined
    await edited
      .transaction(async (tx) => {
        await tx.query('alter table public.playlists add column colour text')
        diff = diffSnapshots(from, await catalogSnapshot(tx), readSchemaFiles(dir))
        throw new Error('roll back')
      })
      .catch((e: Error) => {
        if (e.message !== 'roll back') throw e
      })
    expect(diff!.refused).toEqual(['column playlists.colour (only in the schema files): write this change by hand in a migration'])
  })
})
