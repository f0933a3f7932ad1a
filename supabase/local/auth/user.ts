import { runAs } from '../core/caller.ts'
import { authError, sendJson } from '../core/errors.ts'
import type { ApiRequest } from '../core/router.ts'
import { API_VERSION, type AuthContext } from './context.ts'
import { sessionClaims } from './sessions.ts'
import { AUTH_ADMIN, USER_COLUMNS, userJson, type UserRow } from './users.ts'

/** GET /auth/v1/user: the signed-in user, while their session is live. */
export async function user({ db, options }: AuthContext, { req, res }: ApiRequest) {
  const { sub, sessionId } = await sessionClaims(options, req)
  const row = await runAs(db, 'supabase_auth_admin', AUTH_ADMIN, async (tx) => {
    const session = await tx.query('select 1 from auth.sessions where id = $1 and user_id = $2', [sessionId, sub])
    if (!session.rows.length) throw authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
    return (await tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [sub])).rows[0]
  })
  if (!row) throw authError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
  sendJson(res, 200, userJson(row), API_VERSION)
}
