import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, unlink } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import type { Database } from '../core/db.ts'
import { tooLarge } from './errors.ts'

/**
 * Where the local Storage keeps object bytes: `<dir>/<bucket>/<version>`, one file per uploaded
 * version (a fresh UUID, recorded in storage.objects.version), and `<dir>/.tmp/` for bodies still
 * arriving. Names chosen by users never become file names, so no object name can reach outside
 * the folder, and an overwrite never touches the file a running download is reading.
 */
export interface ObjectFiles {
  readonly dir: string
  /** A fresh path in the temporary folder (created on first use). */
  tempPath(): Promise<string>
  /** The file holding `version` of an object in `bucket`. */
  pathOf(bucket: string, version: string): string
  /** Moves a fully received temporary file into place as `version` (same file system: atomic). */
  place(tempPath: string, bucket: string, version: string): Promise<void>
  /** Deletes a version's file; a missing file is not an error. */
  discard(bucket: string, version: string): Promise<void>
}

export async function openObjectFiles(dir: string, db: Database): Promise<ObjectFiles> {
  const tmp = join(dir, '.tmp')
  await sweep(dir, db)
  const files: ObjectFiles = {
    dir,
    async tempPath() {
      await mkdir(tmp, { recursive: true })
      return join(tmp, randomUUID())
    },
    pathOf: (bucket, version) => join(dir, bucket, version),
    async place(tempPath, bucket, version) {
      await mkdir(join(dir, bucket), { recursive: true })
      await rename(tempPath, files.pathOf(bucket, version))
    },
    async discard(bucket, version) {
      await unlink(files.pathOf(bucket, version)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      })
    },
  }
  return files
}

/**
 * At start: drops half-received bodies and any version file no storage.objects row points at
 * (left by a crash between placing a file and committing its row, or by a lost race).
 */
async function sweep(dir: string, db: Database): Promise<void> {
  await rm(join(dir, '.tmp'), { recursive: true, force: true })
  let buckets: string[]
  try {
    buckets = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if (buckets.length === 0) return
  const { rows } = await db.query<{ bucket_id: string; version: string }>(
    'select bucket_id, version from storage.objects where version is not null',
  )
  const known = new Set(rows.map((r) => `${r.bucket_id}/${r.version}`))
  for (const bucket of buckets) {
    for (const file of await readdir(join(dir, bucket))) {
      if (!known.has(`${bucket}/${file}`)) await rm(join(dir, bucket, file), { force: true, recursive: true })
    }
  }
}

export interface Received {
  size: number
  md5: string
}

/**
 * Streams a request body into `file` (with backpressure, so a 230 MB upload never sits in
 * memory), refusing with 413 as soon as it passes `limit` bytes. A refused body is still read to
 * its end and thrown away, so the client gets the answer instead of a reset connection; a client
 * that stops sending for `idleMs` is cut off.
 */
export function receiveToFile(req: IncomingMessage, file: string, limit: number, idleMs = 30_000): Promise<Received> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'wx' })
    const hash = createHash('md5')
    let size = 0
    let settled = false
    let idle: NodeJS.Timeout | undefined
    const armIdle = () => {
      clearTimeout(idle)
      idle = setTimeout(() => fail(new Error(`upload stalled: no data for ${idleMs / 1000} s`), true), idleMs)
    }
    const fail = (error: unknown, cutOff = false) => {
      if (settled) return
      settled = true
      clearTimeout(idle)
      req.off('data', onData)
      // The answer goes out only once the partial file is gone: nothing of a refused upload
      // outlives the request.
      out.once(
        'close',
        () =>
          void unlink(file)
            .catch(() => undefined)
            .finally(() => reject(error)),
      )
      out.destroy()
      if (cutOff) req.destroy()
      else req.resume()
    }
    const onData = (chunk: Buffer) => {
      armIdle()
      size += chunk.length
      if (size > limit) return fail(tooLarge())
      hash.update(chunk)
      if (!out.write(chunk)) {
        req.pause()
        out.once('drain', () => {
          if (settled) return
          armIdle()
          req.resume()
        })
      }
    }
    armIdle()
    req.on('data', onData)
    req.once('end', () => {
      if (settled) return
      clearTimeout(idle)
      out.end(() => {
        if (settled) return
        settled = true
        resolve({ size, md5: hash.digest('hex') })
      })
    })
    req.once('close', () => {
      if (!req.complete) fail(new Error('the client closed the connection before the upload finished'))
    })
    req.once('error', (error) => fail(error))
    out.once('error', (error) => fail(error))
  })
}
