import { randomUUID } from 'node:crypto'
import { open, unlink, type FileHandle } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { callerFromRequest, runAs, type Caller } from '../core/caller.ts'
import type { Database, Queryable } from '../core/db.ts'
import { HttpError, isSqlError, sendJson } from '../core/errors.ts'
import { readBody } from '../core/http-body.ts'
import { accessDenied, bucketNotFound, invalidMimeType, invalidRequest, objectNotFound, storageSqlError, tooLarge } from './errors.ts'
import { receiveToFile, type ObjectFiles } from './files.ts'
import { extractMultipartFile } from './multipart.ts'
import { objectKey, storageRoute, type StorageRoute } from './paths.ts'

/** Object size cap for a bucket without file_size_limit (hosted projects have a global one too). */
export const DEFAULT_OBJECT_LIMIT = 1024 ** 3
/** Room for the multipart framing around the file, which counts against no bucket limit. */
const MULTIPART_OVERHEAD = 1024 * 1024
const MAX_REMOVE = 1000

/** Rolls back checkWritable's trial write. */
class DryRun extends Error {}

interface Bucket {
  id: string
  fileSizeLimit: number | null
  allowedMimeTypes: string[] | null
}

interface ObjectRow {
  id: string
  version: string
  metadata: { mimetype?: string; cacheControl?: string; eTag?: string } | null
  updated_at: Date | string
}

/**
 * Supabase Storage's object API at /storage/v1 (the subset the app uses: upload, download,
 * remove), faithful to hosted Storage so the same supabase-js calls work on both. Rows live in
 * storage.objects and are written and read as the caller, so the bucket's RLS policies decide
 * everything; bytes live in files (storage/files.ts). No database transaction is ever open while
 * a body streams in or out: PGlite has a single connection.
 *
 *   POST /object/<bucket>/<path>   upload; raw body (Content-Type = the object's type) or
 *                                  multipart/form-data; `x-upsert: true` overwrites.
 *                                  → 200 {"Id": uuid, "Key": "<bucket>/<path>"}
 *   PUT  /object/<bucket>/<path>   the same, always overwriting (storage-js update()).
 *   GET|HEAD /object/[authenticated/]<bucket>/<path>
 *                                  → 200 the bytes, stored Content-Type, Content-Length.
 *   DELETE /object/<bucket>  {"prefixes": [path, …]} → 200 [removed storage.objects rows]
 *   DELETE /object/<bucket>/<path> → 200 {"message": "Successfully deleted"}
 * Errors: {statusCode, code, error, message} (errors.ts), HTTP 400 except 413 (too
 * large), 404 (route not served) and 500.
 */
export function storageRoutes(db: Database, jwtSecret: string, files: ObjectFiles) {
  async function findBucket(id: string): Promise<Bucket> {
    // Bucket settings are read with the server's own rights, as hosted Storage does: API roles
    // see no rows in storage.buckets.
    const { rows } = await db.query<{ id: string; file_size_limit: string | null; allowed_mime_types: string[] | null }>(
      'select id, file_size_limit::text, allowed_mime_types from storage.buckets where id = $1',
      [id],
    )
    const row = rows[0]
    if (!row) throw bucketNotFound()
    return { id: row.id, fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit), allowedMimeTypes: row.allowed_mime_types }
  }

  async function upload(req: IncomingMessage, res: ServerResponse, route: Extract<StorageRoute, { kind: 'upload' }>, caller: Caller) {
    let contentType = headerText(req.headers['content-type']) ?? 'application/octet-stream'
    const multipart = /^multipart\/form-data\b/i.test(contentType)
    let bucket: Bucket
    let userMetadata: string | undefined
    let temp: string
    // Everything that can be refused without the body is refused before reading it, as hosted
    // Storage does: nobody streams 230 MB only to hear that the folder is not theirs.
    try {
      bucket = await findBucket(route.bucket)
      if (!multipart) checkMimeType(bucket, contentType)
      const declared = Number(req.headers['content-length'])
      if (Number.isFinite(declared) && declared > limitOf(bucket) + (multipart ? MULTIPART_OVERHEAD : 0)) throw tooLarge()
      userMetadata = metadataHeader(req.headers['x-metadata'])
      await checkWritable(route, caller)
      temp = await files.tempPath()
    } catch (error) {
      req.resume()
      throw error
    }
    let cacheControl = headerText(req.headers['cache-control'])
    let received = await receiveToFile(req, temp, limitOf(bucket) + (multipart ? MULTIPART_OVERHEAD : 0))
    const version = randomUUID()
    try {
      if (multipart) {
        const body = temp
        temp = await files.tempPath()
        try {
          const part = await extractMultipartFile(body, contentType, temp)
          received = part
          contentType = part.mimetype
          cacheControl = part.cacheControl ?? cacheControl
          if (part.metadata !== undefined) userMetadata = jsonObjectText(part.metadata)
        } finally {
          await unlink(body).catch(() => undefined)
        }
        if (received.size > limitOf(bucket)) throw tooLarge()
        checkMimeType(bucket, contentType)
      }
      await files.place(temp, bucket.id, version)
    } catch (error) {
      await unlink(temp).catch(() => undefined)
      throw error
    }

    const metadata = {
      eTag: `"${received.md5}"`,
      size: received.size,
      mimetype: contentType,
      cacheControl: cacheControl ?? 'no-cache',
      lastModified: new Date().toISOString(),
      contentLength: received.size,
      httpStatusCode: 200,
    }
    let written: { id: string; oldVersion: string | null }
    try {
      written = await writeRow(route, caller, version, metadata, userMetadata)
    } catch (error) {
      await files.discard(bucket.id, version)
      throw storageSqlError(error) ?? error
    }
    if (written.oldVersion && written.oldVersion !== version) await files.discard(bucket.id, written.oldVersion)
    sendJson(res, 200, { Id: written.id, Key: `${bucket.id}/${route.key}` })
  }

  /**
   * The write, tried and rolled back before the body is read (RLS refusal, or an existing object
   * without upsert, is answered at once). The real write after the upload decides again.
   */
  async function checkWritable(route: Extract<StorageRoute, { kind: 'upload' }>, caller: Caller) {
    try {
      await runAs(db, caller.role, caller.claims, async (tx) => {
        await writeStatements(tx, route, caller, randomUUID(), {}, undefined)
        throw new DryRun()
      })
    } catch (error) {
      if (error instanceof DryRun) return
      // A concurrent first upload of the same name just created the row: an upsert will update
      // it, and the real write (with its own retry) decides.
      if (route.upsert && isSqlError(error) && error.code === '23505') return
      throw storageSqlError(error) ?? error
    }
  }

  /** One short transaction as the caller; RLS decides whether the row may be written. */
  async function writeRow(route: Extract<StorageRoute, { kind: 'upload' }>, caller: Caller, version: string, metadata: object, userMetadata: string | undefined) {
    const attempt = () => runAs(db, caller.role, caller.claims, (tx) => writeStatements(tx, route, caller, version, metadata, userMetadata))
    try {
      return await attempt()
    } catch (error) {
      // An upsert that lost a race with a concurrent first upload of the same name: the row now
      // exists, and the second attempt updates it.
      if (route.upsert && isSqlError(error) && error.code === '23505') return attempt()
      throw error
    }
  }

  async function writeStatements(tx: Queryable, route: Extract<StorageRoute, { kind: 'upload' }>, caller: Caller, version: string, metadata: object, userMetadata: string | undefined) {
    const owner = caller.role === 'authenticated' ? String(caller.claims.sub) : null
    const values = [route.bucket, route.key, owner, JSON.stringify(metadata), userMetadata ?? null, version]
    if (route.upsert) {
      // Locks the existing row first, so the version it replaces is the one really replaced even
      // when two uploads of the same name race on a real PostgreSQL.
      const { rows } = await tx.query<{ id: string; old_version: string | null }>(
        `update storage.objects o
            set owner = $3::uuid, owner_id = $3, metadata = $4::jsonb, user_metadata = $5::jsonb, version = $6,
                updated_at = now(), last_accessed_at = now()
           from (select id, version from storage.objects where bucket_id = $1 and name = $2 for update) old
          where o.id = old.id
      returning o.id::text as id, old.version as old_version`,
        values,
      )
      if (rows[0]) return { id: rows[0].id, oldVersion: rows[0].old_version }
    }
    const { rows } = await tx.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
       values ($1, $2, $3::uuid, $3, $4::jsonb, $5::jsonb, $6)
       returning id::text as id`,
      values,
    )
    return { id: rows[0]!.id, oldVersion: null }
  }

  async function download(res: ServerResponse, route: Extract<StorageRoute, { kind: 'download' }>, caller: Caller) {
    const bucket = await findBucket(route.bucket)
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

  const REMOVED_COLUMNS = 'id::text as id, bucket_id, name, owner::text as owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at'

  async function removeMany(req: IncomingMessage, res: ServerResponse, bucketId: string, caller: Caller) {
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
    const bucket = await findBucket(bucketId)
    const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
      tx.query<{ version: string | null }>(`delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${REMOVED_COLUMNS}`, [bucket.id, keys]),
    )
    for (const r of rows) if (r.version) await files.discard(bucket.id, r.version)
    sendJson(res, 200, rows)
  }

  async function removeOne(req: IncomingMessage, res: ServerResponse, route: Extract<StorageRoute, { kind: 'removeOne' }>, caller: Caller) {
    await readBody(req)
    const bucket = await findBucket(route.bucket)
    const { rows } = await runAs(db, caller.role, caller.claims, (tx) =>
      tx.query<{ version: string | null }>('delete from storage.objects where bucket_id = $1 and name = $2 returning version', [bucket.id, route.key]),
    )
    if (!rows[0]) throw objectNotFound()
    if (rows[0].version) await files.discard(bucket.id, rows[0].version)
    sendJson(res, 200, { message: 'Successfully deleted' })
  }

  /** Answers /storage/v1/* given the raw (undecoded, unnormalised) path after the prefix. */
  return async function handle(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    const method = req.method ?? 'GET'
    let route: StorageRoute
    let caller: Caller
    try {
      route = storageRoute(method, rawPath, req.headers['x-upsert'])
      caller = await storageCaller(req, jwtSecret)
    } catch (error) {
      req.resume()
      throw error
    }
    try {
      switch (route.kind) {
        case 'upload':
          return await upload(req, res, route, caller)
        case 'download':
          return await download(res, route, caller)
        case 'removeMany':
          return await removeMany(req, res, route.bucket, caller)
        case 'removeOne':
          return await removeOne(req, res, route, caller)
      }
    } catch (error) {
      if (error instanceof HttpError) {
        // readBody's refusals come in PostgREST's shape; Storage clients expect Storage's.
        if (error.status === 413) throw tooLarge()
        if ('statusCode' in error.body) throw error
        throw invalidRequest(String(error.body.message ?? error.message))
      }
      const mapped = storageSqlError(error)
      if (mapped) throw mapped
      console.error('local storage:', error)
      throw new HttpError(500, { statusCode: '500', code: 'InternalError', error: 'internal', message: 'Internal error in the local storage' })
    }
  }
}

/** The caller as Storage reports a bad token: 400 with statusCode "403" (hosted's AccessDenied). */
async function storageCaller(req: IncomingMessage, jwtSecret: string): Promise<Caller> {
  try {
    return await callerFromRequest(req, jwtSecret)
  } catch (error) {
    if (error instanceof HttpError) throw accessDenied(`Invalid JWT: ${String(error.body.message)}`)
    throw error
  }
}

const limitOf = (bucket: Bucket) => bucket.fileSizeLimit ?? DEFAULT_OBJECT_LIMIT

const headerText = (value: string | string[] | undefined): string | undefined => {
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text.trim() === '' ? undefined : text.trim()
}

/**
 * allowed_mime_types as hosted Storage reads it: exact types or `type/*`; parameters such as
 * `; charset=utf-8` are not part of the comparison.
 */
function checkMimeType(bucket: Bucket, contentType: string) {
  const allowed = bucket.allowedMimeTypes
  if (!allowed || allowed.length === 0) return
  const [type, subtype] = contentType.split(';')[0]!.trim().toLowerCase().split('/')
  const ok = allowed.some((a) => {
    const [t, s] = a.trim().toLowerCase().split('/')
    return t === type && (s === '*' || s === subtype)
  })
  if (!ok) throw invalidMimeType(contentType)
}

/** x-metadata: base64 of a JSON object (storage-js's `metadata` upload option). */
function metadataHeader(value: string | string[] | undefined): string | undefined {
  const text = headerText(value)
  if (text === undefined) return undefined
  return jsonObjectText(Buffer.from(text, 'base64').toString('utf8'))
}

function jsonObjectText(text: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalidRequest('The metadata must be a JSON object')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('The metadata must be a JSON object')
  return JSON.stringify(parsed)
}
