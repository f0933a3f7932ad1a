import { readFile } from 'node:fs/promises'
import { describe, expect, inject, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import { introspect } from '../../scripts/db-types/introspect.ts'
import { renderDatabaseTypes } from '../../scripts/db-types/render.ts'
import { DATABASE_TYPES_FILES } from '../../scripts/db-types/generate.ts'

// The database types the app and the edge functions compile against are generated from the
// migrations (`npm run db:types`); a migration without regenerating them fails here.

async function typesOfMigratedDatabase(): Promise<string> {
  const snapshot = await readFile(inject('pgliteSnapshotFile'))
  const pg = await PGlite.create({ loadDataDir: new Blob([snapshot]) })
  try {
    const db = { query: async (sql: string, params?: unknown[]) => ({ rows: (await pg.query(sql, params)).rows }) }
    return renderDatabaseTypes(await introspect(db as Parameters<typeof introspect>[0]))
  } finally {
    await pg.close()
  }
}

describe('generated database types', () => {
  it('match every migration (run `npm run db:types` after adding one)', async () => {
    const expected = await typesOfMigratedDatabase()
    for (const file of DATABASE_TYPES_FILES) expect(await readFile(file, 'utf8'), `${file} is stale: run npm run db:types`).toBe(expected)
  }, 60_000)

  it('type what the app calls: tables with Row/Insert/Update, RPC arguments with defaults optional', async () => {
    const text = await typesOfMigratedDatabase()
    expect(text).toMatch(/ {6}songs: \{\n {8}Row: \{/)
    expect(text).toMatch(/listen_start: \{\n {8}Args: \{\n {10}p_song_id: string\n {10}p_play_id: string\n {10}p_interacted\?: boolean/)
    expect(text).toContain('Relationships: [')
  }, 60_000)
})
