import { runAs } from '../core/caller.ts'
import { authError } from '../core/errors.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { sessionClaims } from './sessions.ts'
import { AUTH_ADMIN } from './users.ts'

/** POST /auth/v1/logout?scope=global|local|others: ends sessions (their refresh tokens go with them). */
export async function logout({ db, options }: AuthContext, { req, res, url }: ApiRequest) {
  const { sub, sessionId } = await sessionClaims(options, req)
  const scope = url.searchParams.get('scope') ?? 'global'
  if (!['global', 'local', 'others'].includes(scope)) throw authError(400, 'validation_failed', 'scope must be global, local or others')
  await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, (tx) =>
    scope === 'global'
      ? tx.query('delete from auth.sessions where user_id = $1', [sub])
      : scope === 'local'
        ? tx.query('delete from auth.sessions where id = $1', [sessionId])
        : tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [sub, sessionId]),
  )
  res.writeHead(204, API_VERSION).end()
}
