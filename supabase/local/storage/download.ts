import { open, type FileHandle } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { runAs } from '../core/caller.ts'
import { HttpError } from '../core/errors.ts'
import { findBucket } from './buckets.ts'
import type { StorageHandler } from './context.ts'
import { objectNotFound, rangeNotSatisfiable } from './errors.ts'
import { isCheckedMedia } from './magic-bytes.ts'
import { parseMediaType } from './media-type.ts'
import { parseRange } from './range.ts'

interface ObjectRow {
  id: string
  version: string
  metadata: { mimetype?: string; cacheControl?: string; eTag?: string } | null
  updated_at: Date | string
}

const OBJECT_ROW = 'select id::text as id, version, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2'

/**
 * GET|HEAD /object/[authenticated/]<bucket>/<path>: the bytes with the stored Content-Type,
 * Cache-Control and ETag, if RLS lets the caller read the row. /object/public/<bucket>/<path>
 * serves a public bucket's objects to anyone (as hosted Storage, without RLS); any other bucket
 * is not found there. A `Range: bytes=…` header gets 206 and only those bytes, so a player seeks
 * into a long track without downloading it all (416 when the range lies outside the object).
 */
export const download: StorageHandler<'download'> = async ({ db, files }, { req, res }, route, caller) => {
  const bucket = await findBucket(db, route.bucket)
  if (route.public && !bucket.public) throw objectNotFound()
  let handle: FileHandle | undefined
  let row: ObjectRow | undefined
  // A concurrent overwrite may delete the version just read: read the row again once.
  for (let tries = 0; tries < 2 && !handle; tries++) {
    const { rows } = route.public
      ? await db.query<ObjectRow>(OBJECT_ROW, [bucket.id, route.key])
      : await runAs(db, caller.role, caller.claims, (tx) => tx.query<ObjectRow>(OBJECT_ROW, [bucket.id, route.key]))
    row = rows[0]
    if (!row) throw objectNotFound()
    handle = await open(files.pathOf(bucket.id, row.version), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
  }
  if (!handle || !row)
    throw new HttpError(500, {
      statusCode: '500',
      code: 'InternalError',
      error: 'internal',
      message: `The file of ${bucket.id}/${route.key} is missing from the local storage folder`,
    })
  let size: number
  try {
    size = (await handle.stat()).size
  } catch (error) {
    await handle.close()
    throw error
  }
  const range = parseRange(req.headers.range, size)
  if (range === 'unsatisfiable') {
    await handle.close()
    throw rangeNotSatisfiable(size)
  }
  const headers = {
    ...servedTypeHeaders(row.metadata?.mimetype),
    'Accept-Ranges': 'bytes',
    'Cache-Control': row.metadata?.cacheControl ?? 'no-cache',
    ETag: row.metadata?.eTag ?? `"${row.version}"`,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
  }
  if (range)
    res.writeHead(206, {
      ...headers,
      'Content-Length': range.end - range.start + 1,
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    })
  else res.writeHead(200, { ...headers, 'Content-Length': size })
  if (route.head || size === 0) {
    await handle.close()
    res.end()
    return
  }
  // The read stream closes the file when it ends or is destroyed; a client that goes away
  // mid-download is not an error of ours.
  await pipeline(handle.createReadStream(range ? { start: range.start, end: range.end } : {}), res).catch(() => undefined)
}

/**
 * Users' objects are served from the app's own origin, so nothing in them may run there: the
 * browser never sniffs a type of its own (nosniff), and anything but checked images and audio
 * (JSON, text, a type stored before types were checked) is a download in a sandbox without any
 * right to run script or load anything.
 */
function servedTypeHeaders(stored: string | undefined): Record<string, string> {
  let type: string | undefined
  try {
    type = stored === undefined ? undefined : parseMediaType(stored).header
  } catch {
    type = undefined
  }
  const essence = type?.split(';')[0]
  const headers: Record<string, string> = { 'Content-Type': type ?? 'application/octet-stream', 'X-Content-Type-Options': 'nosniff' }
  if (essence && isCheckedMedia(essence)) return headers
  return { ...headers, 'Content-Security-Policy': "default-src 'none'; sandbox", 'Content-Disposition': 'attachment' }
}
