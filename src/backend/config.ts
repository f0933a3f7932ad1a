import { LOCAL_ANON_KEY } from './local-defaults.ts'

export interface BackendConfig {
  url: string
  anonKey: string
}

/**
 * The anon key the embedded local backend put into the page it served: each data folder signs
 * with its own secret (supabase/local/core/local-keys.ts, `withAnonKey`).
 */
const servedAnonKey = (): string | undefined =>
  typeof document === 'undefined'
    ? undefined
    : document.querySelector<HTMLMetaElement>('meta[name="cube-anon-key"]')?.content.trim() || undefined

/**
 * Where the app's Supabase lives. By default the embedded local backend that serves the app on
 * the same origin, with the anon key it served in the page; VITE_SUPABASE_URL /
 * VITE_SUPABASE_ANON_KEY point it at a hosted project.
 */
export function backendConfig(env: ImportMetaEnv = import.meta.env, origin: string = window.location.origin): BackendConfig {
  const url = env.VITE_SUPABASE_URL?.trim() || origin
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim() || servedAnonKey() || LOCAL_ANON_KEY
  return { url: url.replace(/\/+$/, ''), anonKey }
}
