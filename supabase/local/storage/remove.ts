import { runAs } from '../core/caller.ts'
import { sendJson } from '../core/errors.ts'
import { readBody } from '../core/http-body.ts'
import { findBucket } from './buckets.ts'
import type { StorageHandler } from './context.ts'
import { invalidRequest, objectNotFound } from './errors.ts'
import { objectKey } from './paths.ts'

const MAX_REMOVE = 1000
const REMOVED_COLUMNS =
  'id::text as id, bucket_id, name, owner::text as owner, owner_id, version, metadata, user_metadata, created_at, ' +
  'updated_at, last_accessed_at'

/** DELETE /object/<bucket> {"prefixes": [path, …]} → 200 [the removed storage.objects rows] (storage-js remove()). */
export const removeMany: StorageHandler<'removeMany'> = async ({ db, files }, { req, res }, route, caller) => {
  const raw = (await readBody(req)).toString('utf8')
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    throw invalidRequest('The body must be JSON: {"prefixes": ["path", ...]}')
  }
  const prefixes = (body as { prefixes?: unknown } | null)?.prefixes
  if (!Array.isArray(prefixes) || prefixes.length === 0 || prefixes.some((p) => typeof p !== 'string')) {
    throw invalidRequest('The body must be JSON: {"prefixes": ["path", ...]} with at least one path')
  }
  if (prefixes.length > MAX_REMOVE) throw invalidRequest(`At most ${MAX_REMOVE} objects can be removed at once`)
  const keys = (prefixes as string[]).map(objectKey)
  const bucket = await findBucket(db, route.bucket)
  const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
    tx.query<{ version: string | null }>(
      `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${REMOVED_COLUMNS}`,
      [bucket.id, keys],
    ),
  )
  for (const r of rows) if (r.version) await files.discard(bucket.id, r.version)
  sendJson(res, 200, rows)
}

/** DELETE /object/<bucket>/<path> → 200 {"message": "Successfully deleted"}. */
export const removeOne: StorageHandler<'removeOne'> = async ({ db, files }, { req, res }, route, caller) => {
  await readBody(req)
  const bucket = await findBucket(db, route.bucket)
  const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
    tx.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 and name = $2 returning version', [
      bucket.id,
      route.key,
    ]),
  )
  if (!rows[0]) throw objectNotFound()
  if (rows[0].version) await files.discard(bucket.id, rows[0].version)
  sendJson(res, 200, { message: 'Successfully deleted' })
}
