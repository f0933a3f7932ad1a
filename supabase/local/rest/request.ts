import type { IncomingMessage } from 'node:http'
import { restError } from '../core/errors.ts'

// What PostgREST reads from request headers: Prefer, the schema profile, and .single()'s Accept.

const SINGLE = 'application/vnd.pgrst.object+json'

export function preferences(req: IncomingMessage): Map<string, string> {
  const prefs = new Map<string, string>()
  const header = req.headers.prefer
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [key, value] = part.trim().split('=')
    if (key) prefs.set(key.trim(), (value ?? '').trim())
  }
  return prefs
}

/** Only the public schema is exposed (Accept-Profile on reads, Content-Profile on writes). */
export function checkProfile(req: IncomingMessage) {
  for (const name of ['accept-profile', 'content-profile']) {
    const value = req.headers[name]
    if (value !== undefined && value !== 'public')
      throw restError(406, 'PGRST106', 'The schema must be one of the following: public', null, null)
  }
}

export const wantsSingle = (req: IncomingMessage) => (req.headers.accept ?? '').includes(SINGLE)

/** .single(): exactly one row or PostgREST's 406 (thrown inside the transaction, so writes roll back). */
export function singleRow(body: string): string {
  const rows = JSON.parse(body) as unknown[]
  if (rows.length !== 1)
    throw restError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows.length} rows`)
  return JSON.stringify(rows[0])
}

/** Paging and ordering apply to reads only here. */
export function rejectPaging(url: URL) {
  for (const key of ['limit', 'offset', 'order']) {
    if (url.searchParams.has(key)) throw restError(400, 'PGRST100', `"${key}" on update or delete is not supported by the local backend`)
  }
}
