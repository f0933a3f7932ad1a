import { HttpError } from '../core/errors.ts'
import type { Service } from '../core/router.ts'
import type { EdgeHandler } from '../../functions/_shared/http.ts'
import { runEdgeHandler } from './fetch-bridge.ts'
import type { EdgeFunctionDeps } from './registry.ts'
import { guardedFetch } from '../../functions/_shared/outbound-guard.ts'
import { localOutboundPolicy } from './outbound-policy.ts'
import { localSite } from './site.ts'

/**
 * Edge functions at /functions/v1/<name> (and /api/<name>): each runs the same Fetch-API handler
 * hosted Supabase runs on Deno, built once from `registry` with the local dependencies. The
 * deployment's configuration (its address, the outbound policy) is read here from the environment,
 * as Deno.env gives it to hosted functions; every outbound call goes through the policy.
 */
export function functionsService(
  { fetch, ...deps }: Omit<EdgeFunctionDeps, 'site' | 'fetch'> & { fetch: typeof globalThis.fetch },
  registry: Readonly<Record<string, (deps: EdgeFunctionDeps) => EdgeHandler>>,
  env: NodeJS.ProcessEnv = process.env,
): Service {
  const site = localSite(env)
  const outbound = guardedFetch(fetch, localOutboundPolicy(env))
  const handlers = new Map(Object.entries(registry).map(([name, make]) => [name, make({ ...deps, site, fetch: outbound })]))
  return {
    prefixes: ['functions/v1', 'api'],
    async handle({ req, res, url, prefix, path }) {
      site.observe(req)
      const handler = /^\/[^/]+$/.test(path) ? handlers.get(path.slice(1)) : undefined
      if (!handler) {
        const message = `No route ${req.method} /${prefix}${path}`
        throw new HttpError(404, { error: message, code: 'not_found', message })
      }
      await runEdgeHandler(handler, req, res, url)
    },
  }
}
