import type { IncomingMessage } from 'node:http'
import { callerFromRequest, type Caller } from '../core/caller.ts'
import { clientWentAway, HttpError } from '../core/errors.ts'
import type { Service } from '../core/router.ts'
import type { StorageContext, StorageHandler } from './context.ts'
import { accessDenied, invalidRequest, notServed, storageSqlError, tooLarge } from './errors.ts'
import type { ObjectFiles } from './files.ts'
import { storageRoute, type StorageRoute } from './paths.ts'

/** One handler per kind of Storage route. */
export type StorageEndpoints = { readonly [K in StorageRoute['kind']]: StorageHandler<K> }

/**
 * Supabase Storage's object API at /storage/v1 (the subset the app uses: upload, download,
 * remove, list), faithful to hosted Storage so the same supabase-js calls work on both. Rows live in
 * storage.objects and are written and read as the caller, so the bucket's RLS policies decide
 * everything; bytes live in files (files.ts). No database transaction is ever open while a body
 * streams in or out: PGlite has a single connection.
 *
 *   POST /object/<bucket>/<path>   upload; raw body (Content-Type = the object's type) or
 *                                  multipart/form-data; `x-upsert: true` overwrites.
 *                                  → 200 {"Id": uuid, "Key": "<bucket>/<path>"}
 *   PUT  /object/<bucket>/<path>   the same, always overwriting (storage-js update()).
 *   GET|HEAD /object/[authenticated/]<bucket>/<path>
 *                                  → 200 the bytes, stored Content-Type, Content-Length.
 *   DELETE /object/<bucket>  {"prefixes": [path, …]} → 200 [removed storage.objects rows]
 *   DELETE /object/<bucket>/<path> → 200 {"message": "Successfully deleted"}
 *   POST /object/list/<bucket> {prefix, limit, offset, search, sortBy} → 200 [files and folders]
 * Errors: {statusCode, code, error, message} (errors.ts), HTTP 400 except 413 (too large),
 * 404 (route not served) and 500. Routes are read from the raw path (paths.ts). Without a
 * files folder, every route answers that Storage is not served.
 */
export function storageService(
  context: Omit<StorageContext, 'files'> & { files: ObjectFiles | undefined },
  endpoints: StorageEndpoints,
): Service {
  return {
    prefixes: ['storage/v1'],
    rawPath: true,
    streamsBodies: true,
    async handle(request) {
      const { req, rawPath } = request
      const method = req.method ?? 'GET'
      const files = context.files
      let route: StorageRoute
      let caller: Caller
      try {
        if (!files) throw notServed(method, rawPath)
        route = storageRoute(method, rawPath, req.headers['x-upsert'])
        caller = await storageCaller(req, context.jwtSecret)
      } catch (error) {
        req.resume()
        throw error
      }
      const handler = endpoints[route.kind] as StorageHandler
      try {
        return await handler({ ...context, files }, request, route, caller)
      } catch (error) {
        if (error instanceof HttpError) {
          // readBody's refusals come in PostgREST's shape; Storage clients expect Storage's.
          if (error.status === 413) throw tooLarge()
          if ('statusCode' in error.body) throw error
          throw invalidRequest(String(error.body.message ?? error.message))
        }
        const mapped = storageSqlError(error)
        if (mapped) throw mapped
        // A partial upload's file is already gone (files.ts) when its client went away.
        if (!clientWentAway(req, error)) console.error('local storage:', error)
        throw new HttpError(500, {
          statusCode: '500',
          code: 'InternalError',
          error: 'internal',
          message: 'Internal error in the local storage',
        })
      }
    },
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
