import type { IncomingMessage } from 'node:http'
import { HttpError } from '../core/errors.ts'
import { localKeys } from '../core/local-keys.ts'

// Hosted Supabase's gateway (Kong's key-auth) stands in front of PostgREST: a request without one
// of the project's API keys, in the `apikey` header or the `apikey` query parameter, never reaches
// the database. A cross-site <img> or <form> carries no header, so it is refused here; the query
// parameter is then removed (hide_credentials) and never read as a function argument or a filter.

const NO_KEY = new HttpError(401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' })
const INVALID_KEY = new HttpError(401, {
  message: 'Invalid API key',
  hint: 'Double check your Supabase `anon` or `service_role` API key.',
})

/** The project's keys as the gateway knows them (its consumers): the anon and the service-role key. */
export function projectApiKeys(jwtSecret: string): () => Promise<ReadonlySet<string>> {
  let keys: Promise<ReadonlySet<string>> | undefined
  return () => (keys ??= localKeys(jwtSecret).then((k) => new Set([k.anonKey, k.serviceRoleKey])))
}

/** Refuses a request without a project API key (401, the gateway's answer) and drops the key from the query. */
export async function checkApiKey(req: IncomingMessage, url: URL, keys: () => Promise<ReadonlySet<string>>): Promise<void> {
  const header = req.headers.apikey
  const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
  url.searchParams.delete('apikey')
  if (key === undefined || key === '') throw NO_KEY
  if (!(await keys()).has(key)) throw INVALID_KEY
}
