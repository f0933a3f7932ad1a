import { readFile } from 'node:fs/promises'
import type { Database } from '../core/db.ts'
import type { ObjectFiles } from './files.ts'

/**
 * An object's bytes and stored type as the service role reads them (what supabase-js's
 * `storage.from(bucket).download(path)` gives an edge function on hosted Supabase); null when
 * there is no such object or Storage is off.
 */
export function objectBytes(db: Database, files: ObjectFiles | undefined) {
  return async (bucket: string, path: string): Promise<{ bytes: Uint8Array; mimeType: string } | null> => {
    if (!files) return null
    const { rows } = await db.query<{ version: string; mimetype: string | null }>(
      "select version, metadata ->> 'mimetype' as mimetype from storage.objects where bucket_id = $1 and name = $2",
      [bucket, path],
    )
    const row = rows[0]
    if (!row) return null
    const bytes = await readFile(files.pathOf(bucket, row.version)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw error
    })
    return bytes ? { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mimeType: row.mimetype ?? '' } : null
  }
}
