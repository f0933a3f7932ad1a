// What an edge function needs to act as the server itself (service_role): calling the SQL
// functions only the server may call (linking a verified wallet, burning for a mint, completing or
// refunding it). On Deno it is supabase-js created with the service-role key (never sent to a
// browser); on the local backend it runs the function as service_role on its own database
// (supabase/local/functions/service-client.ts).

export interface RpcResult {
  data: unknown
  error: { message: string; code: string } | null
}

export interface ServiceClient {
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<RpcResult>
}
