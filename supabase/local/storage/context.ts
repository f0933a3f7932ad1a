import type { Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import type { ApiRequest } from '../core/router.ts'
import type { ObjectFiles } from './files.ts'
import type { StorageRoute } from './paths.ts'

/** What every Storage handler gets. */
export interface StorageContext {
  db: Database
  jwtSecret: string
  files: ObjectFiles
}

/** Handles one kind of Storage route (upload, download, removeOne, removeMany). */
export type StorageHandler<K extends StorageRoute['kind'] = StorageRoute['kind']> = (
  context: StorageContext,
  request: ApiRequest,
  route: Extract<StorageRoute, { kind: K }>,
  caller: Caller,
) => Promise<void>
