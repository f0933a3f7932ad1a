import type { ChangeType } from './bindings.ts'

/**
 * The channel cube_realtime.notify_change() (supabase/schemas/comments.sql) notifies on,
 * after the writing transaction commits: one message per changed row of a published table.
 */
export const CHANGE_CHANNEL = 'cube_realtime'

export interface RowChange {
  schema: string
  table: string
  type: ChangeType
  /** The changed row's primary key. */
  pk: Record<string, unknown>
  /**
   * The old row's replica identity (UPDATE, DELETE): its primary key by default, every column with
   * REPLICA IDENTITY FULL. What a DELETE is filtered on, as on hosted Realtime.
   */
  identity: Record<string, unknown>
  /** The identity was over the notification's size: only its values of at most 64 bytes are left. */
  tooLarge: boolean
  commitTimestamp: string
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function parseChange(payload: string): RowChange | undefined {
  let raw: unknown
  try {
    raw = JSON.parse(payload)
  } catch {
    return undefined
  }
  if (!isObject(raw) || typeof raw.schema !== 'string' || typeof raw.table !== 'string' || !isObject(raw.pk)) return undefined
  if (raw.type !== 'INSERT' && raw.type !== 'UPDATE' && raw.type !== 'DELETE') return undefined
  const commit = typeof raw.commit_timestamp === 'string' ? new Date(raw.commit_timestamp) : new Date()
  return {
    schema: raw.schema,
    table: raw.table,
    type: raw.type,
    pk: raw.pk,
    identity: isObject(raw.identity) ? raw.identity : {},
    tooLarge: raw.too_large === true,
    commitTimestamp: (Number.isNaN(commit.getTime()) ? new Date() : commit).toISOString(),
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The statement re-reading the changed row (as a subscriber, so their RLS applies). */
export function rowQuery(change: RowChange): { text: string; values: string[] } {
  const keys = Object.keys(change.pk)
  return {
    text:
      `select to_jsonb(t)::text as row from ${ident(change.schema)}.${ident(change.table)} t where ` +
      `${keys.map((k, i) => `t.${ident(k)} = $${i + 1}`).join(' and ')}`,
    values: keys.map((k) => String(change.pk[k])),
  }
}
