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

const apiKey = (role: 'anon' | 'service_role', secret: string) => signJwt({ iss: 'supabase-demo', role, exp: KEY_EXPIRY }, secret)

export const LOCAL_ANON_KEY = await apiKey('anon', DEFAULT_LOCAL_JWT_SECRET)
export const LOCAL_SERVICE_ROLE_KEY = await apiKey('service_role', DEFAULT_LOCAL_JWT_SECRET)

export interface LocalKeys {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
}

/** The secret in use: LOCAL_JWT_SECRET, else the public default. */
export const localJwtSecret = (jwtSecret?: string): string => jwtSecret || process.env.LOCAL_JWT_SECRET || DEFAULT_LOCAL_JWT_SECRET

export async function localKeys(jwtSecret?: string): Promise<LocalKeys> {
  const secret = localJwtSecret(jwtSecret)
  return { jwtSecret: secret, anonKey: await apiKey('anon', secret), serviceRoleKey: await apiKey('service_role', secret) }
}
