import { rm } from 'node:fs/promises'
import { ownerOnlyFiles, ownerOnlyFolder } from './private-folders.ts'
import pg from 'pg'
import { openPgliteThread } from './pglite-thread.ts'

/** What request handlers need from a database: parameterised queries inside one transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}

/** One interface over embedded PGlite and a real PostgreSQL reached through `pg`. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /**
   * Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. `opening`,
   * SQL without parameters, runs right after BEGIN in the same round trip to the database.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opening?: string): Promise<T>
  /** Several statements separated by semicolons (migrations). */
  exec(sql: string): Promise<void>
  /**
   * LISTEN on `channel`: `onPayload` gets each NOTIFY payload after its transaction commits (the
   * Realtime service's change feed). Resolves to the unlisten function.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** PGlite only: the cluster as a data-folder dump (loadable as `snapshot`). */
  dump?(): Promise<Blob>
  close(): Promise<void>
}

export async function openPglite(dataDir: string | undefined, options: { reset?: boolean; snapshot?: Blob } = {}): Promise<Database> {
  if (dataDir) {
    if (options.reset) await rm(dataDir, { recursive: true, force: true })
    await ownerOnlyFolder(dataDir, 'data folder')
  }
  const db = await openPgliteThread(dataDir, options.snapshot)
  // The folder is closed to others; its files say so too (PGlite creates them group- and world-readable).
  if (dataDir) await ownerOnlyFiles(dataDir)
  return db
}

export function openPostgres(connectionString: string, poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10)): Database {
  const pool = new pg.Pool({ connectionString, max: poolSize })
  // An idle client's connection dropping must not crash the server; the next checkout reconnects.
  pool.on('error', (error) => console.error('postgres pool:', error.message))
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await pool.query(sql, params as unknown[])).rows as T[] }),
    transaction: async (fn, opening) => {
      const client = await pool.connect()
      try {
        // One simple-protocol message: BEGIN and the opening statements cost one round trip.
        await client.query(opening ? `begin; ${opening}` : 'begin')
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params as unknown[])).rows as T[] }),
        })
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    exec: async (sql) => {
      await pool.query(sql)
    },
    listen: (channel, onPayload) => listenPostgres(connectionString, channel, onPayload),
    close: () => pool.end(),
  }
}

/**
 * LISTEN needs a connection of its own, outside the pool; it reconnects (and listens again) when
 * that connection drops.
 */
async function listenPostgres(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let stopped = false
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString })
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload)
    })
    c.on('error', (error) => {
      console.error('postgres listen:', error.message)
      c.end().catch(() => undefined)
      if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000).unref()
    })
    await c.connect()
    await c.query(`listen ${c.escapeIdentifier(channel)}`)
    client = c
  }
  await connect()
  return async () => {
    stopped = true
    await client?.end().catch(() => undefined)
  }
}

/** DATABASE_URL wins; otherwise PGlite in `dataDir`. */
export function openDatabase(options: {
  databaseUrl?: string
  dataDir?: string
  reset?: boolean
  pgliteSnapshot?: Blob
}): Promise<Database> {
  if (options.databaseUrl) return Promise.resolve(openPostgres(options.databaseUrl))
  return openPglite(options.dataDir, { reset: options.reset, snapshot: options.pgliteSnapshot })
}
