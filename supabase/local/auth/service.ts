import { HttpError } from '../core/errors.ts'
import type { ApiRequest, Service } from '../core/router.ts'
import type { AuthContext } from './context.ts'

export type AuthHandler = (context: AuthContext, request: ApiRequest) => Promise<void>

/**
 * The auth service (GoTrue subset) at /auth/v1: `endpoints` maps "METHOD /path" to its handler;
 * anything else is GoTrue's JSON 404.
 */
export function authService(context: AuthContext, endpoints: Readonly<Record<string, AuthHandler>>): Service {
  return {
    prefixes: ['auth/v1'],
    async handle(request) {
      const route = `${request.req.method} ${request.path}`
      const handler = Object.hasOwn(endpoints, route) ? endpoints[route] : undefined
      if (!handler) throw new HttpError(404, { code: 'not_found', error_code: 'not_found', msg: `No auth route ${route}` })
      await handler(context, request)
    },
  }
}
