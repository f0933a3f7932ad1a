import { invalidKey, invalidRequest, notServed } from './errors.ts'

/** The Storage requests the local backend answers (everything else is a 404 that says so). */
export type StorageRoute =
  | { kind: 'upload'; bucket: string; key: string; upsert: boolean }
  | { kind: 'download'; bucket: string; key: string; head: boolean; public?: boolean }
  | { kind: 'removeOne'; bucket: string; key: string }
  | { kind: 'removeMany'; bucket: string }
  | { kind: 'list'; bucket: string }

/** Object routes of hosted Storage that share /object/<word>/… with buckets; none is served. */
const OTHER_OBJECT_ROUTES = new Set(['sign', 'info', 'move', 'copy', 'upload', 'render'])
const BUCKET_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/
const MAX_KEY_BYTES = 1024

/**
 * Reads the route from the raw request path (after /storage/v1), never from a parsed URL: URL
 * parsing would quietly resolve `..` segments and turn backslashes into slashes, and such a path
 * must be refused, not reinterpreted.
 */
export function storageRoute(method: string, rawPath: string, upsertHeader: string | string[] | undefined): StorageRoute {
  const match = /^\/object\/([^/]+)(?:\/(.*))?$/s.exec(rawPath)
  if (!match) throw notServed(method, rawPath)
  let bucketPart = match[1]!
  let rest = match[2]
  let viaAuthenticated = false
  let viaPublic = false
  if (bucketPart === 'list') {
    // POST /object/list/<bucket> (storage-js list()); a bucket can never be called "list" here.
    if (method !== 'POST' || rest === undefined || rest.includes('/')) throw notServed(method, rawPath)
    const bucket = decode(rest, 'bucket')
    if (!BUCKET_ID.test(bucket)) throw invalidRequest(`Bucket name invalid: ${JSON.stringify(bucket)}`)
    return { kind: 'list', bucket }
  }
  if (bucketPart === 'authenticated' && rest !== undefined) {
    // GET /object/authenticated/<bucket>/<path> is hosted Storage's explicit form of a download.
    const inner = /^([^/]+)(?:\/(.*))?$/s.exec(rest)!
    bucketPart = inner[1]!
    rest = inner[2]
    viaAuthenticated = true
  } else if (bucketPart === 'public' && rest !== undefined) {
    // GET /object/public/<bucket>/<path> (getPublicUrl): a public bucket's object, no token needed.
    const inner = /^([^/]+)(?:\/(.*))?$/s.exec(rest)!
    bucketPart = inner[1]!
    rest = inner[2]
    viaPublic = true
  } else if (OTHER_OBJECT_ROUTES.has(bucketPart)) throw notServed(method, rawPath)

  const bucket = decode(bucketPart, 'bucket')
  if (!BUCKET_ID.test(bucket)) throw invalidRequest(`Bucket name invalid: ${JSON.stringify(bucket)}`)

  if (rest === undefined) {
    if (viaPublic) throw notServed(method, rawPath)
    if (method === 'DELETE' && !viaAuthenticated) return { kind: 'removeMany', bucket }
    if (method === 'POST' || method === 'PUT' || method === 'GET' || method === 'HEAD') throw invalidKey('', 'the object path is empty')
    throw notServed(method, rawPath)
  }
  const key = objectKey(decode(rest, 'key'))
  if ((viaAuthenticated || viaPublic) && method !== 'GET' && method !== 'HEAD') throw notServed(method, rawPath)
  if (viaPublic) return { kind: 'download', bucket, key, head: method === 'HEAD', public: true }
  switch (method) {
    case 'POST':
      return { kind: 'upload', bucket, key, upsert: headerValue(upsertHeader) === 'true' }
    case 'PUT':
      // storage-js's update(): hosted Storage treats PUT as an upsert.
      return { kind: 'upload', bucket, key, upsert: true }
    case 'GET':
    case 'HEAD':
      return { kind: 'download', bucket, key, head: method === 'HEAD' }
    case 'DELETE':
      return { kind: 'removeOne', bucket, key }
    default:
      throw notServed(method, rawPath)
  }
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase()

function decode(raw: string, what: 'bucket' | 'key'): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw what === 'key'
      ? invalidKey(raw, 'malformed percent-encoding')
      : invalidRequest(`Bucket name invalid: malformed percent-encoding in ${JSON.stringify(raw)}`)
  }
}

/**
 * An object name as hosted Storage keeps it: folders separated by single slashes. Refused: empty
 * names, absolute or folder-only paths, empty, `.` and `..` segments, backslashes, control
 * characters and names over 1024 bytes, so that a name always means one place and can never
 * be read as a file-system path.
 */
export function objectKey(key: string): string {
  if (key === '') throw invalidKey(key, 'the object path is empty')
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw invalidKey(key.slice(0, 64) + '…', `longer than ${MAX_KEY_BYTES} bytes`)
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(key)) throw invalidKey(key, 'control characters are not allowed')
  if (key.includes('\\')) throw invalidKey(key, 'backslashes are not allowed')
  if (key.startsWith('/')) throw invalidKey(key, 'absolute paths are not allowed')
  if (key.endsWith('/')) throw invalidKey(key, 'a path ending in / names a folder, not an object')
  for (const segment of key.split('/')) {
    if (segment === '') throw invalidKey(key, 'empty folder name (//)')
    if (segment === '.' || segment === '..') throw invalidKey(key, '"." and ".." segments are not allowed')
  }
  return key
}
