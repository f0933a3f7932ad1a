import { open, type FileHandle } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { runAs } from '../core/caller.ts'
import { HttpError } from '../core/errors.ts'
import { findBucket } from './buckets.ts'
import type { StorageHandler } from './context.ts'
import { objectNotFound } from './errors.ts'

interface ObjectRow {
  id: string
  version: string
  metadata: { mimetype?: string; cacheControl?: string; eTag?: string } | null
  updated_at: Date | string
}

/**
 * GET|HEAD /object/[authenticated/]<bucket>/<path>: the bytes with the stored Content-Type,
 * Cache-Control and ETag, if RLS lets the caller read the row.
 */
export const download: StorageHandler<'download'> = async ({ db, files }, { res }, route, caller) => {
  const bucket = await findBucket(db, route.bucket)
  let handle: FileHandle | undefined
  let row: ObjectRow | undefined
  // A concurrent overwrite may delete the version just read: read the row again once.
  for (let tries = 0; tries < 2 && !handle; tries++) {
    const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
      tx.query<ObjectRow>('select id::text as id, version, metadata, updated_at from storage.objects where bucket_id = $1 and name = $2', [bucket.id, route.key]),
    )
    row = rows[0]
    if (!row) throw objectNotFound()
    handle = await open(files.pathOf(bucket.id, row.version), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
  }
  if (!handle || !row) throw new HttpError(500, { statusCode: '500', code: 'InternalError', error: 'internal', message: `The file of ${bucket.id}/${route.key} is missing from the local storage folder` })
  let size: number
  try {
    size = (await handle.stat()).size
  } catch (error) {
    await handle.close()
    throw error
  }
  res.writeHead(200, {
    'Content-Type': row.metadata?.mimetype ?? 'application/octet-stream',
    'Content-Length': size,
    'Cache-Control': row.metadata?.cacheControl ?? 'no-cache',
    ETag: row.metadata?.eTag ?? `"${row.version}"`,
    'Last-Modified': new Date(row.updated_at).toUTCString(),
  })
  if (route.head) {
    await handle.close()
    res.end()
    return
  }
  // The read stream closes the file when it ends or is destroyed; a client that goes away
  // mid-download is not an error of ours.
  await pipeline(handle.createReadStream(), res).catch(() => undefined)
}
