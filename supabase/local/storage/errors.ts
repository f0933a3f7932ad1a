import { HttpError, isSqlError } from '../core/errors.ts'

/**
 * Supabase Storage's error shape. Hosted Storage answers every refusal with HTTP 400 and puts the
 * meaningful code in the body's `statusCode` string (storage-js copies it to
 * StorageApiError.statusCode and `message` to error.message); only internal errors are HTTP 500.
 * Two deliberate exceptions here, both part of the contract with the app: an over-limit body is
 * HTTP 413 and an unknown route HTTP 404, so plain HTTP tooling sees them for what they are.
 * `error` is the legacy short name hosted Storage still sends, `code` the newer error code.
 */
export function storageError(httpStatus: number, statusCode: string, code: string, error: string, message: string): HttpError {
  return new HttpError(httpStatus, { statusCode, code, error, message })
}

export const objectNotFound = () => storageError(400, '404', 'NoSuchKey', 'not_found', 'Object not found')
export const bucketNotFound = () => storageError(400, '404', 'NoSuchBucket', 'Bucket not found', 'Bucket not found')
export const alreadyExists = () => storageError(400, '409', 'Duplicate', 'Duplicate', 'The resource already exists')
export const rlsRefusal = () => storageError(400, '403', 'AccessDenied', 'Unauthorized', 'new row violates row-level security policy')
export const accessDenied = (message: string) => storageError(400, '403', 'AccessDenied', 'Unauthorized', message)
export const tooLarge = () =>
  storageError(413, '413', 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size')
export const invalidMimeType = (mime: string, why?: string) =>
  storageError(
    400,
    '415',
    'InvalidMimeType',
    'invalid_mime_type',
    why ? `mime type ${mime} is not supported: ${why}` : `mime type ${mime} is not supported`,
  )
export const invalidKey = (key: string, why: string) =>
  storageError(400, '400', 'InvalidKey', 'InvalidKey', `Invalid key: ${JSON.stringify(key)} (${why})`)
export const rangeNotSatisfiable = (size: number) =>
  new HttpError(
    416,
    { statusCode: '416', code: 'InvalidRange', error: 'invalid_range', message: `The range is outside the object (${size} bytes)` },
    { 'Content-Range': `bytes */${size}` },
  )
export const invalidRequest = (message: string) => storageError(400, '400', 'InvalidRequest', 'InvalidRequest', message)
export const notServed = (method: string, path: string) =>
  storageError(
    404,
    '404',
    'NotSupported',
    'not_found',
    `No storage route ${method} /storage/v1${path}: the local backend serves only object upload (POST/PUT ` +
      `/object/<bucket>/<path>), download (GET/HEAD /object/<bucket>/<path>, public buckets at ` +
      `/object/public/<bucket>/<path>, with Range), list (POST /object/list/<bucket>) and remove (DELETE ` +
      `/object/<bucket>); signed URLs and the bucket API are not served`,
  )

/** A PostgreSQL error met while writing storage.objects, as hosted Storage reports it. */
export function storageSqlError(error: unknown): HttpError | undefined {
  if (!isSqlError(error)) return undefined
  if (error.code === '42501') return rlsRefusal()
  if (error.code === '23505') return alreadyExists()
  if (error.code === '23503') return bucketNotFound()
  // The account's storage quota (supabase/schemas/creations.sql): refused in the database's words.
  if (error.code === 'PT413') return storageError(400, '413', 'QuotaExceeded', 'quota_exceeded', error.message)
  return undefined
}
