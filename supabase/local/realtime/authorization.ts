import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Caller } from '../core/caller.ts'
import type { Database, Queryable } from '../core/db.ts'

// Realtime Authorization as hosted Realtime runs it (lib/realtime/tenants/authorization.ex of
// github.com/supabase/realtime): RLS policies on realtime.messages decide, for the caller's JWT, who may use a
// private channel. Read (may join and receive): probe rows of the topic, one per extension, are
// inserted as the database owner, then selected as the caller, whose SELECT policies decide which
// come back. Write (may send broadcasts, track presence): the caller inserts a row per extension,
// each in a savepoint, whose INSERT policies decide. Both run in a transaction that is rolled back,
// with the settings policies read: role, request.jwt.claims (auth.uid(), auth.jwt()),
// request.jwt.claim.sub and .role, request.headers and realtime.topic (realtime.topic()).

export type Extension = 'broadcast' | 'presence'

export interface Policies {
  broadcastRead?: boolean
  presenceRead?: boolean
  broadcastWrite?: boolean
  presenceWrite?: boolean
}

export interface AuthorizationContext {
  caller: Caller
  /** The channel's topic without realtime-js's "realtime:" prefix. */
  topic: string
  headers: Record<string, string>
}

/** The policy check ended; its transaction is rolled back by throwing this. */
class Outcome<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back')
  }
}

async function rolledBack<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new Outcome(await fn(tx))
    })
  } catch (error) {
    if (error instanceof Outcome) return error.value as T
    throw error
  }
  throw new Error('unreachable: the policy check always rolls back')
}

function settings(tx: Queryable, { caller, topic, headers }: AuthorizationContext) {
  const literal = pg.escapeLiteral
  const claims = { ...caller.claims, role: caller.claims.role ?? caller.role }
  const sub = typeof caller.claims.sub === 'string' ? caller.claims.sub : ''
  return tx.query(
    `select set_config('role', ${literal(caller.role)}, true), set_config('realtime.topic', ${literal(topic)}, true), ` +
      `set_config('request.jwt.claims', ${literal(JSON.stringify(claims))}, true), ` +
      `set_config('request.jwt.claim.sub', ${literal(sub)}, true), set_config('request.jwt.claim.role', ${literal(caller.role)}, true), ` +
      `set_config('request.headers', ${literal(JSON.stringify(headers))}, true), set_config('statement_timeout', '5s', true)`,
  )
}

/** May the caller read the topic's broadcasts (and presence, when asked)? A policy that errors denies. */
export async function readPolicies(db: Database, context: AuthorizationContext, extensions: Extension[]): Promise<Policies> {
  const probes = extensions.map((extension) => ({ extension, id: randomUUID() }))
  try {
    const readable = await rolledBack(db, async (tx) => {
      for (const { extension, id } of probes)
        await tx.query('insert into realtime.messages (id, topic, extension) values ($1, $2, $3)', [id, context.topic, extension])
      await settings(tx, context)
      const { rows } = await tx.query<{ id: string }>('select id from realtime.messages where id = any ($1::uuid[])', [
        probes.map((p) => p.id),
      ])
      return new Set(rows.map((r) => r.id))
    })
    const policies: Policies = {}
    for (const { extension, id } of probes) policies[extension === 'broadcast' ? 'broadcastRead' : 'presenceRead'] = readable.has(id)
    return policies
  } catch (error) {
    console.error('realtime: read policy check failed:', error instanceof Error ? error.message : error)
    return Object.fromEntries(extensions.map((e) => [e === 'broadcast' ? 'broadcastRead' : 'presenceRead', false]))
  }
}

/** May the caller send broadcasts (and track presence, when asked) on the topic? */
export async function writePolicies(db: Database, context: AuthorizationContext, extensions: Extension[]): Promise<Policies> {
  try {
    return await rolledBack(db, async (tx) => {
      await settings(tx, context)
      const policies: Policies = {}
      for (const extension of extensions) {
        await tx.query('savepoint realtime_write_check')
        let allowed = true
        try {
          await tx.query('insert into realtime.messages (topic, extension) values ($1, $2)', [context.topic, extension])
        } catch (error) {
          allowed = false
          if ((error as { code?: string }).code !== '42501') throw error
        }
        await tx.query(allowed ? 'release savepoint realtime_write_check' : 'rollback to savepoint realtime_write_check')
        policies[extension === 'broadcast' ? 'broadcastWrite' : 'presenceWrite'] = allowed
      }
      return policies
    })
  } catch (error) {
    console.error('realtime: write policy check failed:', error instanceof Error ? error.message : error)
    return Object.fromEntries(extensions.map((e) => [e === 'broadcast' ? 'broadcastWrite' : 'presenceWrite', false]))
  }
}
