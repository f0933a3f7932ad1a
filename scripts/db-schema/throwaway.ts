/**
 * Throwaway databases to build a schema in: one PostgreSQL 15 cluster (Debian's binaries) holding
 * as many databases as asked for, or in-memory PGlite when PostgreSQL is not installed.
 */
import { readFileSync } from 'node:fs'
import { openPglite, openPostgres, type Database } from '../../supabase/local/core/db.ts'
import { BOOTSTRAP_FILE, migrate, MIGRATIONS_DIR } from '../../supabase/local/core/migrate.ts'
import { startPostgresCluster, type PostgresCluster } from '../../tests/backend/support/postgres-cluster.ts'
import { compileSchema, readSchemaFiles, SCHEMAS_DIR } from './schema-files.ts'

export interface Throwaway {
  kind: 'postgres' | 'pglite'
  /** A new empty database (PostgreSQL: its URL is `urls.get(db)`). */
  create(name: string): Promise<Database>
  urls: Map<Database, string>
  close(): Promise<void>
}

export async function throwaway(prefer: 'postgres' | 'pglite' = 'postgres'): Promise<Throwaway> {
  const opened: Database[] = []
  const urls = new Map<Database, string>()
  let cluster: PostgresCluster | string | undefined
  if (prefer === 'postgres') cluster = await startPostgresCluster()
  if (cluster && typeof cluster !== 'string') {
    const c = cluster
    const admin = openPostgres(c.url, 1)
    return {
      kind: 'postgres',
      urls,
      async create(name) {
        await admin.query(`create database ${name}`)
        const url = c.url.replace(/\/postgres$/, `/${name}`)
        const db = openPostgres(url, 2)
        opened.push(db)
        urls.set(db, url)
        return db
      },
      async close() {
        for (const db of opened) await db.close()
        await admin.close()
        c.stop()
      },
    }
  }
  return {
    kind: 'pglite',
    urls,
    async create() {
      const db = await openPglite(undefined)
      opened.push(db)
      return db
    },
    async close() {
      for (const db of opened) await db.close()
    },
  }
}

/** bootstrap.sql and every migration, as the local backend and `supabase db push` apply them. */
export async function applyMigrations(db: Database, migrationsDir = MIGRATIONS_DIR): Promise<void> {
  await migrate(db, migrationsDir)
}

/** bootstrap.sql, then the schema files compiled stage by stage, in one transaction. */
export async function applySchemaFiles(db: Database, schemasDir = SCHEMAS_DIR): Promise<void> {
  await db.exec(readFileSync(BOOTSTRAP_FILE, 'utf8'))
  await db.exec(`begin;\n${compileSchema(readSchemaFiles(schemasDir))}\ncommit;`)
}

export async function applyBootstrap(db: Database): Promise<void> {
  await db.exec(readFileSync(BOOTSTRAP_FILE, 'utf8'))
}
