import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from '../../supabase/local/core/db.ts'
import { migrate } from '../../supabase/local/core/migrate.ts'
import { introspect } from './introspect.ts'
import { renderDatabaseTypes } from './render.ts'

// `npm run db:types`: migrates a throwaway PGlite with every migration and writes the public
// schema's types where the app's backend calls and the edge functions read them.

/** Where the generated types live: the app's backend layer and the edge functions' shared folder (Deno imports nothing from src/). */
export const DATABASE_TYPES_FILES = ['src/backend/database.types.ts', 'supabase/functions/_shared/database.types.ts'].map((p) =>
  fileURLToPath(new URL(`../../${p}`, import.meta.url)),
)

export async function generateDatabaseTypes(): Promise<string> {
  const pg = await PGlite.create()
  try {
    const db = {
      exec: async (sql: string) => void (await pg.exec(sql)),
      query: async (sql: string, params?: unknown[]) => ({ rows: (await pg.query(sql, params)).rows }),
    } as unknown as Database
    await migrate(db)
    return renderDatabaseTypes(await introspect(db))
  } finally {
    await pg.close()
  }
}

/** The files that differ from what the migrations generate now. */
export async function staleDatabaseTypes(text: string): Promise<string[]> {
  const stale: string[] = []
  for (const file of DATABASE_TYPES_FILES) if ((await readFile(file, 'utf8').catch(() => '')) !== text) stale.push(file)
  return stale
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateDatabaseTypes()
  for (const file of DATABASE_TYPES_FILES) await writeFile(file, text)
  console.log(`wrote ${DATABASE_TYPES_FILES.length} files`)
}
