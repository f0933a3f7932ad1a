import { LOCAL_ANON_KEY } from './local-defaults.ts'

export interface BackendConfig {
  url: string
  anonKey: string
}

/**
 * Where the app's Supabase lives. By default the embedded local backend that serves the app on
 * the same origin; VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY point it at a hosted project.
 */
export function backendConfig(env: ImportMetaEnv = import.meta.env, origin: string = window.location.origin): BackendConfig {
  const url = env.VITE_SUPABASE_URL?.trim() || origin
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim() || LOCAL_ANON_KEY
  return { url: url.replace(/\/+$/, ''), anonKey }
}
