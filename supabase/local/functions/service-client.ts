import type { ServiceClient } from '../../functions/_shared/service-client.ts'
import { runAs } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { isSqlError } from '../core/errors.ts'
import { namedArgs } from './named-args.ts'

/**
 * The service role for edge functions on the local backend: calls a public SQL function as
 * service_role (grants as on Supabase; RLS bypassed). Never reachable over HTTP: the REST API
 * serves only anon and authenticated (core/caller.ts).
 */
export function localServiceClient(db: Database): ServiceClient {
  return {
    async rpc(fn, args = {}) {
      const { sql, params } = namedArgs(fn, args)
      try {
        const { rows } = await runAs(db, 'service_role', { role: 'service_role' }, (tx) => tx.query<{ body: string | null }>(sql, params))
        return { data: JSON.parse(rows[0]?.body ?? 'null') as unknown, error: null }
      } catch (error) {
        if (isSqlError(error)) return { data: null, error: { message: error.message, code: error.code } }
        throw error
      }
    },
  }
}
