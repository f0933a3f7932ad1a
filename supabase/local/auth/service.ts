import { HttpError } from '../core/errors.ts'
import type { ApiRequest, Service } from '../core/router.ts'
import type { AuthContext } from './context.ts'

export type AuthHandler = (context: AuthContext, request: ApiRequest, params: Readonly<Record<string, string>>) => Promise<void>

/** Matches "METHOD /path" against a route key whose `:name` segments take any one segment. */
function matchRoute(key: string, route: string): Record<string, string> | undefined {
  const want = key.split(/[ /]/)
  const got = route.split(/[ /]/)
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!)
    else if (want[i] !== got[i]) return undefined
  }
  return params
}

/**
 * The auth service (GoTrue subset) at /auth/v1: `endpoints` maps "METHOD /path" (with `:param`
 * segments) to its handler; anything else is GoTrue's JSON 404.
 */
export function authService(context: AuthContext, endpoints: Readonly<Record<string, AuthHandler>>): Service {
  const routes = Object.entries(endpoints)
  return {
    prefixes: ['auth/v1'],
    async handle(request) {
      const route = `${request.req.method} ${request.path}`
      for (const [key, handler] of routes) {
        const params = matchRoute(key, route)
        if (params) return handler(context, request, params)
      }
      throw new HttpError(404, { code: 'not_found', error_code: 'not_found', msg: `No auth route ${route}` })
    },
  }
}
