// What an edge function needs from supabase-js, acting as the calling user. supabase-js's
// SupabaseClient fits it (tests/backend/edge-functions.test.ts checks that it does); the local
// backend implements it directly on its database (supabase/local/functions/user-client.ts).

import type { RpcName } from './service-client.ts'

export interface UserClient {
  auth: {
    /**
     * The user the access token belongs to, checked by the auth service; an error or no user
     * otherwise. GoTrue lists the user's MFA factors (without secrets) when there are any.
     */
    getUser(jwt: string): Promise<{ data: { user: { id: string; factors?: readonly { status: string }[] } | null }; error: unknown }>
  }
  /** Calls a public SQL function as the user (RLS and auth.uid() see them). */
  rpc(fn: RpcName, args?: Record<string, unknown>): PromiseLike<{ data: unknown; error: { message: string; code: string } | null }>
}

/** createClient() for the caller's access token: every request it makes carries that token. */
export type UserClientFactory = (accessToken: string) => UserClient
