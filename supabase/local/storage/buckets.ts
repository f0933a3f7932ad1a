import type { Database } from '../core/db.ts'
import { bucketNotFound, invalidMimeType } from './errors.ts'
import { parseMediaType, type MediaType } from './media-type.ts'

/** Object size cap for a bucket without file_size_limit (hosted projects have a global one too). */
export const DEFAULT_OBJECT_LIMIT = 1024 ** 3

export interface Bucket {
  id: string
  /** Anyone may read its objects at /object/public/<bucket>/<path>, without RLS. */
  public: boolean
  fileSizeLimit: number | null
  allowedMimeTypes: string[] | null
}

/**
 * A bucket's settings, read with the server's own rights as hosted Storage does: API roles see
 * no rows in storage.buckets.
 */
export async function findBucket(db: Database, id: string): Promise<Bucket> {
  const { rows } = await db.query<{
    id: string
    public: boolean | null
    file_size_limit: string | null
    allowed_mime_types: string[] | null
  }>('select id, public, file_size_limit::text, allowed_mime_types from storage.buckets where id = $1', [id])
  const row = rows[0]
  if (!row) throw bucketNotFound()
  return {
    id: row.id,
    public: row.public === true,
    fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    allowedMimeTypes: row.allowed_mime_types,
  }
}

export const limitOf = (bucket: Bucket) => bucket.fileSizeLimit ?? DEFAULT_OBJECT_LIMIT

/**
 * allowed_mime_types as hosted Storage reads it: exact types or `type/*`, compared with the
 * strictly parsed essence (media-type.ts), so parameters cannot smuggle in a second type.
 * Answers the parsed type: the one that is stored and served back.
 */
export function checkMimeType(bucket: Bucket, contentType: string): MediaType {
  const type = parseMediaType(contentType)
  const allowed = bucket.allowedMimeTypes
  if (!allowed || allowed.length === 0) return type
  const [main, sub] = type.essence.split('/')
  const ok = allowed.some((a) => {
    const [t, s] = a.trim().toLowerCase().split('/')
    return t === main && (s === '*' || s === sub)
  })
  if (!ok) throw invalidMimeType(contentType)
  return type
}
