import type { Caller } from '../core/caller.ts'
import type { Queryable } from '../core/db.ts'
import { runAsApiCaller } from '../core/pre-request.ts'
import type { RestContext } from './context.ts'
import { applyTimezone, type Preferences } from './prefer.ts'

/**
 * The transaction every REST request runs in, as PostgREST opens it: the caller's role, claims and
 * headers, the pre-request check, then `Prefer: timezone`, then fn. `readOnly` for GET and HEAD.
 */
export function inRequestTransaction<T>(
  { db, catalog }: Pick<RestContext, 'db' | 'catalog'>,
  caller: Caller,
  prefs: Preferences,
  fn: (tx: Queryable) => Promise<T>,
  options: { readOnly?: boolean } = {},
): Promise<T> {
  return runAsApiCaller(
    db,
    caller,
    catalog().preRequest,
    async (tx) => {
      await applyTimezone(tx, prefs)
      return fn(tx)
    },
    options,
  )
}
