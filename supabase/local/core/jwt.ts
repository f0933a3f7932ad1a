import { compactVerify, decodeJwt, decodeProtectedHeader, SignJWT } from 'jose'

export type JwtClaims = Record<string, unknown> & { exp?: number; role?: string; sub?: string }

const keyOf = (secret: string) => new TextEncoder().encode(secret)

/**
 * HS256 JWT, the algorithm Supabase projects sign their keys and sessions with. The header is
 * {"alg":"HS256","typ":"JWT"} and the claims go out exactly as given (no iat or exp added), so
 * the same claims and secret give the same token as GoTrue and the Supabase CLI.
 */
export function signJwt(claims: JwtClaims, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(keyOf(secret))
}

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'missing_exp' }

const BASE64URL = /^[A-Za-z0-9_-]+$/

// The HMAC key imported once per secret: jose imports a raw Uint8Array key again on every call.
const hmacKeys = new Map<string, Promise<CryptoKey>>()
const hmacKey = (secret: string): Promise<CryptoKey> => {
  let key = hmacKeys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey('raw', keyOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    hmacKeys.set(secret, key)
  }
  return key
}

/**
 * Tokens whose signature verified, per secret, as PostgREST's JWT cache keeps them: a client sends
 * the same token with every request until it refreshes, and the signature cannot change. Expiry is
 * still checked on every use. Bounded; the oldest entry goes first.
 */
const VERIFIED_LIMIT = 2000
const verified = new Map<string, Map<string, JwtClaims>>()

function remember(secret: string, token: string, claims: JwtClaims): void {
  let tokens = verified.get(secret)
  if (!tokens) verified.set(secret, (tokens = new Map()))
  if (tokens.size >= VERIFIED_LIMIT) tokens.delete(tokens.keys().next().value!)
  tokens.set(token, claims)
}

const checkExpiry = (claims: JwtClaims, nowSeconds: number): JwtCheck => {
  const exp = claims.exp
  if (exp === undefined) return { ok: false, reason: 'missing_exp' }
  if (typeof exp !== 'number' || exp <= nowSeconds) return { ok: false, reason: 'expired' }
  return { ok: true, claims: { ...claims } }
}

/**
 * Verifies signature and expiry; anything but a well-formed HS256 token fails. jose checks the
 * signature; the claims rule is PostgREST's (`exp` is enforced) made strict: a token without
 * `exp` would never expire, so it is refused (every token we or GoTrue issue, and the API keys,
 * carry one). Checked here so that the reason (and with it the API's error) stays precise.
 */
export async function verifyJwt(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<JwtCheck> {
  const known = verified.get(secret)?.get(token)
  if (known) return checkExpiry(known, nowSeconds)
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => !BASE64URL.test(p))) return { ok: false, reason: 'malformed' }
  let claims: JwtClaims
  try {
    if (decodeProtectedHeader(token).alg !== 'HS256') return { ok: false, reason: 'malformed' }
    claims = decodeJwt(token) as JwtClaims
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  try {
    await compactVerify(token, await hmacKey(secret), { algorithms: ['HS256'] })
  } catch {
    return { ok: false, reason: 'bad_signature' }
  }
  const check = checkExpiry(claims, nowSeconds)
  if (check.ok) remember(secret, token, claims)
  return check
}
