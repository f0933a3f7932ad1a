import type { IncomingMessage } from 'node:http'
import { restError } from '../core/errors.ts'

// The schema profile headers, and what the local backend refuses on writes.

/** Only the public schema is exposed (Accept-Profile on reads, Content-Profile on writes). */
export function checkProfile(req: IncomingMessage) {
  for (const name of ['accept-profile', 'content-profile']) {
    const value = req.headers[name]
    if (value !== undefined && value !== 'public')
      throw restError(406, 'PGRST106', 'The schema must be one of the following: public', null, null)
  }
}

/** Paging and ordering apply to reads only here. */
export function rejectPaging(url: URL) {
  for (const key of ['limit', 'offset', 'order']) {
    if (url.searchParams.has(key)) throw restError(400, 'PGRST100', `"${key}" on update or delete is not supported by the local backend`)
  }
}
