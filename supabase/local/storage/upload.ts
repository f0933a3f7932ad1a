import { randomUUID } from 'node:crypto'
import { unlink } from 'node:fs/promises'
import { runAs, type Caller } from '../core/caller.ts'
import type { Database, Queryable } from '../core/db.ts'
import { isSqlError, sendJson } from '../core/errors.ts'
import { checkMimeType, findBucket, limitOf, type Bucket } from './buckets.ts'
import { checkMagicBytes } from './magic-bytes.ts'
import type { MediaType } from './media-type.ts'
import type { StorageHandler } from './context.ts'
import { invalidRequest, storageSqlError, tooLarge } from './errors.ts'
import { receiveToFile } from './files.ts'
import { extractMultipartFile } from './multipart.ts'
import type { StorageRoute } from './paths.ts'

type UploadRoute = Extract<StorageRoute, { kind: 'upload' }>

/** Room for the multipart framing around the file, which counts against no bucket limit. */
const MULTIPART_OVERHEAD = 1024 * 1024

/** Rolls back checkWritable's trial write. */
class DryRun extends Error {}

/**
 * POST /object/<bucket>/<path> (PUT: always overwriting): the body, raw (Content-Type = the
 * object's type) or multipart/form-data, streams to a file; then one short transaction as the
 * caller writes the storage.objects row, and RLS decides. → 200 {"Id": uuid, "Key": "<bucket>/<path>"}
 */
export const upload: StorageHandler<'upload'> = async ({ db, files }, { req, res }, route, caller) => {
  const contentType = headerText(req.headers['content-type']) ?? 'application/octet-stream'
  const multipart = /^multipart\/form-data\b/i.test(contentType)
  let bucket: Bucket
  let type: MediaType | undefined
  let userMetadata: string | undefined
  let temp: string
  // Everything that can be refused without the body is refused before reading it, as hosted
  // Storage does: nobody streams 230 MB only to hear that the folder is not theirs.
  try {
    bucket = await findBucket(db, route.bucket)
    if (!multipart) type = checkMimeType(bucket, contentType)
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limitOf(bucket) + (multipart ? MULTIPART_OVERHEAD : 0)) throw tooLarge()
    userMetadata = metadataHeader(req.headers['x-metadata'])
    await checkWritable(db, route, caller)
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
        type = checkMimeType(bucket, part.mimetype)
        cacheControl = part.cacheControl ?? cacheControl
        if (part.metadata !== undefined) userMetadata = jsonObjectText(part.metadata)
      } finally {
        await unlink(body).catch(() => undefined)
      }
      if (received.size > limitOf(bucket)) throw tooLarge()
    }
    // The declared type is only a claim: an image or audio file must also look like one.
    await checkMagicBytes(temp, type!.essence)
    await files.place(temp, bucket.id, version)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }

  const metadata = {
    eTag: `"${received.md5}"`,
    size: received.size,
    mimetype: type!.header,
    cacheControl: cacheControl ?? 'no-cache',
    lastModified: new Date().toISOString(),
    contentLength: received.size,
    httpStatusCode: 200,
  }
  let written: { id: string; oldVersion: string | null }
  try {
    written = await writeRow(db, route, caller, version, metadata, userMetadata)
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
async function checkWritable(db: Database, route: UploadRoute, caller: Caller) {
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
async function writeRow(
  db: Database,
  route: UploadRoute,
  caller: Caller,
  version: string,
  metadata: object,
  userMetadata: string | undefined,
) {
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

async function writeStatements(
  tx: Queryable,
  route: UploadRoute,
  caller: Caller,
  version: string,
  metadata: object,
  userMetadata: string | undefined,
) {
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

const headerText = (value: string | string[] | undefined): string | undefined => {
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text.trim() === '' ? undefined : text.trim()
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
