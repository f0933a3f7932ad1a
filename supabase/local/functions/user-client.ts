import type { UserClient, UserClientFactory } from '../../functions/_shared/user-client.ts'
import { callerFromToken, runAs, type Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { HttpError, isSqlError } from '../core/errors.ts'
import { runAsApiCaller } from '../core/pre-request.ts'
import { namedArgs } from './named-args.ts'

/**
 * What edge functions get instead of supabase-js on the local backend: the caller's token is
 * verified as the REST API verifies it, and rpc() runs the public SQL function as that caller
 * through runAs, so RLS and auth.uid() apply exactly as they do behind PostgREST, pre-request
 * check included (`preRequest`: the REST catalogue's current one).
 */
export function localUserClient(db: Database, jwtSecret: string, preRequest: () => string | undefined): UserClientFactory {
  return (accessToken): UserClient => {
    const signedIn = async (): Promise<Caller | undefined> => {
      try {
        const caller = await callerFromToken(accessToken, jwtSecret)
        return caller.role === 'authenticated' ? caller : undefined
      } catch (error) {
        if (error instanceof HttpError) return undefined
        throw error
      }
    }
    return {
      auth: {
        async getUser(jwt) {
          const caller = jwt === accessToken ? await signedIn() : undefined
          if (!caller) return { data: { user: null }, error: new Error('invalid JWT') }
          const id = String(caller.claims.sub)
          const { rows: factors } = await runAs(db, 'supabase_auth_admin', { role: 'supabase_auth_admin' }, (tx) =>
            tx.query<{ status: string }>('select status from auth.mfa_factors where user_id = $1', [id]),
          )
          return { data: { user: { id, ...(factors.length ? { factors } : {}) } }, error: null }
        },
      },
      async rpc(fn, args = {}) {
        const { sql, params } = namedArgs(fn, args)
        const caller = await signedIn()
        if (!caller) return { data: null, error: { message: 'JWT is not a signed-in user', code: 'PGRST301' } }
        try {
          const { rows } = await runAsApiCaller(db, caller, preRequest(), (tx) => tx.query<{ body: string | null }>(sql, params))
          return { data: JSON.parse(rows[0]?.body ?? 'null') as unknown, error: null }
        } catch (error) {
          if (isSqlError(error)) return { data: null, error: { message: error.message, code: error.code } }
          throw error
        }
      },
    }
  }
}
