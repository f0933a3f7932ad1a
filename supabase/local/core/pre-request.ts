import { openingSql, type Caller } from './caller.ts'
import type { Database, Queryable } from './db.ts'

// PostgREST's db-pre-request: the SQL function named by the authenticator role's
// `pgrst.db_pre_request` setting runs inside every API request's transaction, after the role and
// the JWT claims are set and before the request's own statement; when it raises, the request is
// refused with its error. The migrations configure it (supabase/schemas/auth.sql) exactly
// as on a hosted project, and the local backend reads the setting from the same place.

const SETTING_SQL = `
select substr(c, length('pgrst.db_pre_request=') + 1) as fn
  from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
  cross join lateral unnest(s.setconfig) as c
 where r.rolname = 'authenticator' and c like 'pgrst.db\\_pre\\_request=%'
   and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
 order by s.setdatabase desc
 limit 1`

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/

/** The statement that calls the configured pre-request function, or undefined when none is set. */
export async function loadPreRequest(db: Queryable): Promise<string | undefined> {
  const name = (await db.query<{ fn: string }>(SETTING_SQL)).rows[0]?.fn
  if (!name) return undefined
  const parts = name.split('.')
  if (parts.length > 2 || !parts.every((p) => IDENTIFIER.test(p))) throw new Error(`pgrst.db_pre_request is not a function name: ${name}`)
  return `select ${parts.map((p) => `"${p}"`).join('.')}()`
}

/**
 * runAs for a data API request: the caller's role, claims and headers, then the pre-request check, then fn.
 * `readOnly`: the transaction's access mode is READ ONLY (PostgREST's for GET and HEAD).
 */
export function runAsApiCaller<T>(
  db: Database,
  caller: Caller,
  preRequest: string | undefined,
  fn: (tx: Queryable) => Promise<T>,
  options: { readOnly?: boolean } = {},
): Promise<T> {
  return db.transaction(
    fn,
    openingSql({ role: caller.role, claims: caller.claims, headers: caller.headers, preRequest, readOnly: options.readOnly }),
  )
}
