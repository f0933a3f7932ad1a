import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { backendConfig } from './config.ts'
import { createReadFetch } from './read-fetch.ts'
import type { Database } from './database.types.ts'

/** The app's client, typed by the schema generated from the migrations. */
export type AppClient = SupabaseClient<Database>

let client: AppClient | undefined

/** The app's one supabase-js client: session kept in localStorage, access token refreshed automatically. */
export function supabase(): AppClient {
  if (!client) {
    const { url, anonKey } = backendConfig()
    client = createClient<Database>(url, anonKey, {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, storage: window.localStorage },
      global: { fetch: createReadFetch() },
    })
  }
  return client
}
