import { createHash } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import { open } from 'node:fs/promises'
import { invalidRequest } from './errors.ts'
import type { Received } from './files.ts'

export interface MultipartUpload extends Received {
  mimetype: string
  cacheControl: string | undefined
  metadata: string | undefined
}

/**
 * The file of a multipart/form-data upload (what storage-js sends for a Blob or File: fields
 * `cacheControl`, optional `metadata`, and the file), read from the already received body in
 * `bodyFile` and written to `outFile`. Uses the platform's own form-data parser: simple, but it
 * holds the body in memory, so the app sends raw bodies (ArrayBuffer) for large audio.
 */
export async function extractMultipartFile(bodyFile: string, contentType: string, outFile: string): Promise<MultipartUpload> {
  let form: FormData
  try {
    form = await new Response(await openAsBlob(bodyFile), { headers: { 'content-type': contentType } }).formData()
  } catch (error) {
    throw invalidRequest(`Malformed multipart/form-data body: ${error instanceof Error ? error.message : String(error)}`)
  }
  const file = [...form.values()].find((v): v is File => typeof v !== 'string')
  if (!file) throw invalidRequest('The multipart/form-data body holds no file part')
  const hash = createHash('md5')
  const out = await open(outFile, 'wx')
  let size = 0
  try {
    for await (const chunk of file.stream() as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk)
      size += chunk.length
      await out.write(chunk)
    }
  } finally {
    await out.close()
  }
  const field = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : undefined
  }
  const cacheControl = field('cacheControl')
  return {
    size,
    md5: hash.digest('hex'),
    mimetype: file.type || 'application/octet-stream',
    cacheControl: cacheControl ? `max-age=${cacheControl}` : undefined,
    metadata: field('metadata'),
  }
}
