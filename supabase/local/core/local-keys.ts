import { signJwt } from './jwt.ts'

/**
 * The local backend's signing secret and API keys. They are the Supabase CLI's public demo values
 * (`supabase start` prints the same ones): fine for a backend bound to 127.0.0.1, never for a
 * hosted project. LOCAL_JWT_SECRET overrides the secret; the keys are then re-signed with it and
 * the app must be built with the matching VITE_SUPABASE_ANON_KEY.
 */
export const DEFAULT_LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'

/** Issued 2023, expires 2032: long-lived like a project's anon key. */
const KEY_EXPIRY = 1983812996

export const LOCAL_ANON_KEY = signJwt({ iss: 'supabase-demo', role: 'anon', exp: KEY_EXPIRY }, DEFAULT_LOCAL_JWT_SECRET)
export const LOCAL_SERVICE_ROLE_KEY = signJwt({ iss: 'supabase-demo', role: 'service_role', exp: KEY_EXPIRY }, DEFAULT_LOCAL_JWT_SECRET)

export interface LocalKeys {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
}

export function localKeys(jwtSecret = process.env.LOCAL_JWT_SECRET || DEFAULT_LOCAL_JWT_SECRET): LocalKeys {
  return {
    jwtSecret,
    anonKey: signJwt({ iss: 'supabase-demo', role: 'anon', exp: KEY_EXPIRY }, jwtSecret),
    serviceRoleKey: signJwt({ iss: 'supabase-demo', role: 'service_role', exp: KEY_EXPIRY }, jwtSecret),
  }
}
