import type { IncomingMessage } from 'node:http'
import { HttpError } from './errors.ts'

export const MAX_BODY_BYTES = 1024 * 1024

/** Reads the whole body, refusing (413) anything larger than `limit` without buffering it all. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    return Promise.reject(tooLarge(limit))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let failed = false
    req.on('data', (chunk: Buffer) => {
      if (failed) return
      size += chunk.length
      if (size > limit) {
        failed = true
        reject(tooLarge(limit))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks))
    })
    req.on('error', (error) => {
      if (!failed) reject(error)
      failed = true
    })
  })
}

const tooLarge = (limit: number) =>
  new HttpError(413, { code: 'PGRST413', message: `Request body larger than ${limit} bytes`, details: null, hint: null })

/** Parses a JSON body; an empty body is `undefined`, bad JSON a 400 in `shape` (rest or auth). */
export async function readJson(req: IncomingMessage, shape: 'rest' | 'auth', limit = MAX_BODY_BYTES): Promise<unknown> {
  const raw = (await readBody(req, limit)).toString('utf8')
  if (raw.trim() === '') return undefined
  try {
    return JSON.parse(raw)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw shape === 'rest'
      ? new HttpError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: why, hint: null })
      : new HttpError(
          400,
          { code: 'bad_json', error_code: 'bad_json', msg: `Could not parse request body as JSON: ${why}` },
          { 'X-Supabase-Api-Version': '2024-01-01' },
        )
  }
}
