import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { invalidRequest } from './errors.ts'
import type { Received } from './files.ts'

export interface MultipartUpload extends Received {
  mimetype: string
  cacheControl: string | undefined
  metadata: string | undefined
}

/** Text fields are small (storage-js sends `cacheControl` and `metadata`); a longer one is refused. */
const MAX_FIELD_BYTES = 1024 * 1024

const malformed = (error: unknown) =>
  invalidRequest(`Malformed multipart/form-data body: ${error instanceof Error ? error.message : String(error)}`)

/**
 * The file of a multipart/form-data upload (what storage-js sends for a Blob or File: fields
 * `cacheControl`, optional `metadata`, and the file), read from the already received body in
 * `bodyFile` and streamed to `outFile` by busboy, so even a large body never sits in memory.
 * The first file part is the object; further file parts are read and dropped. Its type is the
 * part's Content-Type without parameters (`text/plain` when the part has none), as hosted
 * Storage's multipart parser reports it.
 */
export async function extractMultipartFile(bodyFile: string, contentType: string, outFile: string): Promise<MultipartUpload> {
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: MAX_FIELD_BYTES } })
  } catch (error) {
    throw malformed(error)
  }
  const fields = new Map<string, string>()
  let tooLong: string | undefined
  let part: Promise<Received & { mimetype: string }> | undefined
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) tooLong ??= name
    if (!fields.has(name)) fields.set(name, value)
  })
  parser.on('file', (_name, stream, info) => {
    // busboy destroys the part with the parse error (a truncated body) even before it is read:
    // that error is the parse's, answered below, not an unhandled one.
    stream.on('error', () => undefined)
    if (part) {
      stream.resume()
      return
    }
    part = writePart(stream, outFile).then(
      (received) => ({ ...received, mimetype: info.mimeType }),
      (error: unknown) => {
        // busboy waits for the part to be read: a write that failed must stop the parse too.
        if (error instanceof DiskError) parser.destroy(error.cause as Error)
        throw error
      },
    )
    // Awaited below once parsing ends; until then a failure must not count as unhandled.
    part.catch(() => undefined)
  })
  try {
    await pipeline(createReadStream(bodyFile), parser)
  } catch (error) {
    const failed = await part?.then(
      () => undefined,
      (e: unknown) => e,
    )
    throw failed instanceof DiskError ? failed.cause : malformed(error)
  }
  if (!part) throw invalidRequest('The multipart/form-data body holds no file part')
  const file = await part.catch((error: unknown) => {
    throw error instanceof DiskError ? error.cause : malformed(error)
  })
  if (tooLong !== undefined)
    throw invalidRequest(`The multipart/form-data field ${JSON.stringify(tooLong)} is longer than ${MAX_FIELD_BYTES} bytes`)
  const cacheControl = fields.get('cacheControl')
  return {
    size: file.size,
    md5: file.md5,
    mimetype: file.mimetype || 'application/octet-stream',
    cacheControl: cacheControl ? `max-age=${cacheControl}` : undefined,
    metadata: fields.get('metadata'),
  }
}

/** A failure of our own file system (answered as an internal error), not of the client's body. */
class DiskError extends Error {}
const onDisk = <T>(work: Promise<T>): Promise<T> => work.catch((error: unknown) => Promise.reject(new DiskError('disk', { cause: error })))

/** Streams one part to a new file, counting and hashing it on the way. */
async function writePart(stream: Readable, outFile: string): Promise<Received> {
  const hash = createHash('md5')
  let size = 0
  const out = await onDisk(open(outFile, 'wx'))
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk)
      size += chunk.length
      await onDisk(out.write(chunk))
    }
  } finally {
    await out.close()
  }
  return { size, md5: hash.digest('hex') }
}
