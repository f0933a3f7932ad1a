// What an edge function needs to act as the server itself (service_role): calling the SQL
// functions only the server may call (linking a verified wallet, burning for a mint, completing or
// refunding it). On Deno it is supabase-js created with the service-role key (never sent to a
// browser); on the local backend it runs the function as service_role on its own database
// (supabase/local/functions/service-client.ts).

import type { Database } from './database.types.ts'

/** A public SQL function's name, as the migrations define it (generated types: a typo fails to compile). */
export type RpcName = keyof Database['public']['Functions'] & string

export interface RpcResult {
  data: unknown
  error: { message: string; code: string } | null
}

export interface ServiceClient {
  rpc(fn: RpcName, args?: Record<string, unknown>): PromiseLike<RpcResult>
}
