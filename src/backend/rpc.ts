import { supabase } from './client.ts'
import type { Database, Json } from './database.types.ts'

type Functions = Database['public']['Functions']

/**
 * Calls a SQL function whose result is `json`/`jsonb`. The catalogue knows its arguments (typed from
 * the generated schema) but not the shape of the JSON it builds: `T` is the shape that function's
 * migration documents, and the one place that trust is written down.
 */
export async function rpcJson<T, F extends keyof Functions & string = keyof Functions & string>(
  name: F,
  args?: Functions[F]['Args'],
): Promise<T> {
  const { data, error } = await supabase().rpc(name, args)
  if (error) throw error
  return jsonAs<T>(data as Json)
}

/** A `json`/`jsonb` value read from the database, in the shape its SQL documents (see rpcJson). */
export function jsonAs<T>(value: Json | null | undefined): T {
  return value as unknown as T
}
