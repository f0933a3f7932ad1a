import type { Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import type { ApiRequest } from '../core/router.ts'
import type { Catalog, Table } from './catalog.ts'

/** What every REST handler gets. */
export interface RestContext {
  db: Database
  jwtSecret: string
  /** The public schema as last loaded (the backend re-reads it after migrations). */
  catalog(): Catalog
}

/** GET/HEAD/POST/PATCH/DELETE on /rest/v1/<table>, for a table the catalog knows. */
export type TableHandler = (context: RestContext, request: ApiRequest, table: Table, caller: Caller) => Promise<void>
/** GET/POST /rest/v1/rpc/<name>. */
export type RpcHandler = (context: RestContext, request: ApiRequest, name: string, caller: Caller) => Promise<void>
