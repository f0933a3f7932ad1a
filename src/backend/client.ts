import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { backendConfig } from './config.ts'
import { createReadFetch } from './read-fetch.ts'

let client: SupabaseClient | undefined

/** The app's one supabase-js client: session kept in localStorage, access token refreshed automatically. */
export function supabase(): SupabaseClient {
  if (!client) {
    const { url, anonKey } = backendConfig()
    client = createClient(url, anonKey, {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, storage: window.localStorage },
      global: { fetch: createReadFetch() },
    })
  }
  return client
}
