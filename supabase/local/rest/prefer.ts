import type { IncomingMessage } from 'node:http'
import type { Queryable } from '../core/db.ts'
import { restError } from '../core/errors.ts'

// The Prefer header as PostgREST reads it (ApiRequest/Preferences.hs): every header's
// comma-separated values, the first recognised value of each kind wins, anything unrecognised is
// invalid (refused only with handling=strict, PGRST122). `tx=commit|rollback` is recognised but
// never applied: hosted Supabase runs PostgREST with db-tx-end = commit (no override), so a
// `Prefer: tx=rollback` (supabase-js `.rollback()`) commits there, and so it does here.

export interface Preferences {
  resolution?: 'merge-duplicates' | 'ignore-duplicates'
  return?: 'representation' | 'minimal' | 'headers-only'
  count?: 'exact' | 'planned' | 'estimated'
  missing?: 'default' | 'null'
  handling?: 'strict' | 'lenient'
  timezone?: string
  maxAffected?: number
}

const KINDS = {
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
} as const
const TX = ['tx=commit', 'tx=rollback']

export function preferencesOf(req: IncomingMessage): Preferences {
  const header = req.headers.prefer
  const values = (Array.isArray(header) ? header : header === undefined ? [] : [header])
    .flatMap((h) => h.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
  const prefs: Preferences = {}
  const invalid: string[] = []
  for (const value of values) {
    const [key, ...rest] = value.split('=')
    const arg = rest.join('=')
    if (key === 'timezone' && rest.length) prefs.timezone ??= arg
    else if (key === 'max-affected' && rest.length) {
      // PostgREST reads an Int64; a value that is not one is dropped (and is not invalid).
      if (prefs.maxAffected === undefined && /^-?\d{1,18}$/.test(arg)) prefs.maxAffected = Number(arg)
    } else if (key && key in KINDS && (KINDS[key as keyof typeof KINDS] as readonly string[]).includes(arg)) {
      const kind = key as keyof typeof KINDS
      ;(prefs as Record<string, string>)[kind] ??= arg
    } else if (!TX.includes(value)) invalid.push(value)
  }
  if (invalid.length && prefs.handling === 'strict')
    throw restError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${invalid.join(', ')}`)
  return prefs
}

export type Action = 'read' | 'insert' | 'update' | 'delete' | 'rpc'

/**
 * Preference-Applied as PostgREST sends it (Response.hs responsePreferences): resolution only on
 * inserts into a table with a conflict target, missing on inserts and updates, return on writes,
 * max-affected only with handling=strict on updates, deletes and RPC.
 */
export function preferenceApplied(prefs: Preferences, action: Action, resolutionApplies = false): Record<string, string> {
  const write = action === 'insert' || action === 'update' || action === 'delete'
  const parts = [
    action === 'insert' && resolutionApplies && prefs.resolution && `resolution=${prefs.resolution}`,
    (action === 'insert' || action === 'update') && prefs.missing && `missing=${prefs.missing}`,
    write && prefs.return && `return=${prefs.return}`,
    prefs.count && `count=${prefs.count}`,
    prefs.handling && `handling=${prefs.handling}`,
    prefs.timezone !== undefined && `timezone=${prefs.timezone}`,
    (action === 'update' || action === 'delete' || action === 'rpc') &&
      prefs.handling === 'strict' &&
      prefs.maxAffected !== undefined &&
      `max-affected=${prefs.maxAffected}`,
  ].filter((p): p is string => typeof p === 'string')
  return parts.length ? { 'Preference-Applied': parts.join(', ') } : {}
}

/** Prefer: timezone=… sets the transaction's TimeZone; PostgreSQL refuses an unknown one (22023, 400). */
export async function applyTimezone(tx: Queryable, prefs: Preferences): Promise<void> {
  if (prefs.timezone !== undefined) await tx.query("select set_config('timezone', $1, true)", [prefs.timezone])
}

/** Prefer: handling=strict, max-affected=n: more rows touched than n refuses the request (rolled back). */
export function checkMaxAffected(prefs: Preferences, affected: number): void {
  if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && affected > prefs.maxAffected)
    throw restError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${affected} rows`)
}
