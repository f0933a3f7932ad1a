/**
 * A throwaway in-memory PGlite with what a hosted project has after `supabase db push`: the local
 * backend's bootstrap.sql (roles, auth schema, auth.uid()) and then every supabase/migrations/*.sql
 * in file-name order, each in its own transaction, as supabase/local/core/migrate.ts applies them.
 * Self-contained on purpose (supabase/local is being reorganised): it only reads bootstrap.sql,
 * wherever under supabase/local it lives.
 *
 *   const db = await migratedPglite()
 *   await asUser(db, userId, (tx) => tx.query('select public.listen_start($1, $2)', [...]))
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite, type Transaction } from '@electric-sql/pglite'

const ROOT = join(import.meta.dirname, '..', '..')
export const MIGRATIONS_DIR = join(ROOT, 'supabase', 'migrations')

function findBootstrap(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isFile() && entry.name === 'bootstrap.sql') return path
    if (entry.isDirectory() && entry.name !== 'node_modules') {
      const found = findBootstrap(path)
      if (found) return found
    }
  }
  return undefined
}

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
}

export async function migratedPglite(): Promise<PGlite> {
  const bootstrap = findBootstrap(join(ROOT, 'supabase', 'local'))
  if (!bootstrap) throw new Error('bootstrap.sql not found under supabase/local')
  const db = await PGlite.create()
  await db.exec(readFileSync(bootstrap, 'utf8'))
  for (const file of migrationFiles()) {
    await db.exec(`begin;\n${readFileSync(join(MIGRATIONS_DIR, file), 'utf8')}\n;commit;`)
  }
  return db
}

/** A user in auth.users (the sign-up trigger gives them a profile). */
export async function createUser(db: PGlite, email: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>('insert into auth.users (email) values ($1) returning id', [email])
  return rows[0]!.id
}

/** Runs `fn` as the API would for a request: role anon or authenticated, with the JWT claims, RLS on. */
export function asRole<T>(db: PGlite, userId: string | null, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const role = userId ? 'authenticated' : 'anon'
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(userId ? { sub: userId, role } : { role })])
    await tx.exec(`set local role ${role}`)
    return fn(tx)
  })
}
