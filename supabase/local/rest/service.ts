import { callerFromRequest } from '../core/caller.ts'
import { HttpError, restError } from '../core/errors.ts'
import type { Service } from '../core/router.ts'
import type { RestContext, RpcHandler, TableHandler } from './context.ts'
import { tableOf } from './sql.ts'
import { checkProfile } from './request.ts'
import { checkApiKey, projectApiKeys } from './api-key.ts'

export interface RestEndpoints {
  /** /rpc/<name>, by method. */
  rpc: Readonly<Record<string, RpcHandler>>
  /** /<table>, by method. */
  table: Readonly<Record<string, TableHandler>>
}

const RPC_PATH = /^\/rpc\/([^/]+)$/
const TABLE_PATH = /^\/([^/]+)\/?$/

const methodNotAllowed = (method: string | undefined) =>
  new HttpError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${method}`, details: null, hint: null })

/**
 * The data API (PostgREST subset) at /rest/v1. As the hosted gateway does, it first asks for a
 * project API key; then, as PostgREST does, it checks the caller's token and the schema profile,
 * then the path: /rpc/<name> or /<table> (a table the catalog knows), then the method.
 */
export function restService(context: RestContext, endpoints: RestEndpoints): Service {
  const pick = <H>(handlers: Readonly<Record<string, H>>, method = '') => (Object.hasOwn(handlers, method) ? handlers[method] : undefined)
  const apiKeys = projectApiKeys(context.jwtSecret)
  return {
    prefixes: ['rest/v1'],
    async handle(request) {
      const { req, path } = request
      await checkApiKey(req, request.url, apiKeys)
      const caller = await callerFromRequest(req, context.jwtSecret)
      checkProfile(req)
      const rpcMatch = RPC_PATH.exec(path)
      if (rpcMatch) {
        const handler = pick(endpoints.rpc, req.method)
        if (!handler) throw methodNotAllowed(req.method)
        return handler(context, request, decodeURIComponent(rpcMatch[1]!), caller)
      }
      const tableMatch = TABLE_PATH.exec(path)
      if (!tableMatch) throw restError(404, 'PGRST125', `Invalid path ${path}`)
      const table = tableOf(context.catalog(), decodeURIComponent(tableMatch[1]!))
      const handler = pick(endpoints.table, req.method)
      if (!handler) throw methodNotAllowed(req.method)
      return handler(context, request, table, caller)
    },
  }
}
