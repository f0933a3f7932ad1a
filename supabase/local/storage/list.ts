import { runAs } from '../core/caller.ts'
import { sendJson } from '../core/errors.ts'
import { readBody } from '../core/http-body.ts'
import { findBucket } from './buckets.ts'
import type { StorageHandler } from './context.ts'
import { invalidRequest } from './errors.ts'

const MAX_LIST = 1000
const SORTABLE = new Set(['name', 'updated_at', 'created_at', 'last_accessed_at'])

interface Row {
  name: string
  id: string
  updated_at: string
  created_at: string
  last_accessed_at: string | null
  metadata: unknown
}

interface Entry {
  name: string
  id: string | null
  updated_at: string | null
  created_at: string | null
  last_accessed_at: string | null
  metadata: unknown
}

/**
 * POST /object/list/<bucket> {prefix, limit?, offset?, search?, sortBy?} (storage-js list()): the
 * objects and folders directly inside `prefix` that RLS lets the caller see, as hosted Storage
 * answers it: files with their row's fields, folders with id null. An empty folder lists as [],
 * never an error, so a client can ask whether an object exists without a failed request.
 */
export const list: StorageHandler<'list'> = async ({ db }, { req, res }, route, caller) => {
  const raw = (await readBody(req)).toString('utf8')
  let body: { prefix?: unknown; limit?: unknown; offset?: unknown; search?: unknown; sortBy?: { column?: unknown; order?: unknown } }
  try {
    body = (JSON.parse(raw || '{}') ?? {}) as typeof body
  } catch {
    throw invalidRequest('The body must be JSON: {"prefix": "folder", "limit": 100}')
  }
  if (body.prefix !== undefined && typeof body.prefix !== 'string') throw invalidRequest('prefix must be a string')
  const limit = body.limit === undefined ? 100 : Number(body.limit)
  const offset = body.offset === undefined ? 0 : Number(body.offset)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST) throw invalidRequest(`limit must be a whole number from 1 to ${MAX_LIST}`)
  if (!Number.isInteger(offset) || offset < 0) throw invalidRequest('offset must be a whole number, 0 or more')
  const search = typeof body.search === 'string' ? body.search.toLowerCase() : ''
  const column = typeof body.sortBy?.column === 'string' && SORTABLE.has(body.sortBy.column) ? body.sortBy.column : 'name'
  const descending = body.sortBy?.order === 'desc'
  const folder = (body.prefix ?? '').replace(/^\/+|\/+$/g, '')
  const under = folder === '' ? '' : `${folder}/`

  const bucket = await findBucket(db, route.bucket)
  const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
    tx.query<Row>(
      // starts_with, not LIKE: a prefix holding % or _ means itself.
      'select name, id::text as id, updated_at, created_at, last_accessed_at, metadata from storage.objects where ' +
        'bucket_id = $1 and starts_with(name, $2)',
      [bucket.id, under],
    ),
  )
  const entries = new Map<string, Entry>()
  for (const r of rows) {
    const rest = r.name.slice(under.length)
    const slash = rest.indexOf('/')
    const name = slash === -1 ? rest : rest.slice(0, slash)
    if (!name.toLowerCase().startsWith(search)) continue
    if (slash === -1)
      entries.set(name, {
        name,
        id: r.id,
        updated_at: iso(r.updated_at),
        created_at: iso(r.created_at),
        last_accessed_at: r.last_accessed_at ? iso(r.last_accessed_at) : null,
        metadata: r.metadata,
      })
    else if (!entries.has(name))
      entries.set(name, { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null })
  }
  const key = (e: Entry) => String(column === 'name' ? e.name : (e[column as keyof Entry] ?? ''))
  const sorted = [...entries.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (descending ? -1 : 1))
  sendJson(res, 200, sorted.slice(offset, offset + limit))
}

const iso = (v: string | Date) => new Date(v).toISOString()
