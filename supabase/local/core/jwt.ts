import { createHmac, timingSafeEqual } from 'node:crypto'

export type JwtClaims = Record<string, unknown> & { exp?: number; role?: string; sub?: string }

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

/** HS256 JWT, the algorithm Supabase projects sign their keys and sessions with. */
export function signJwt(claims: JwtClaims, secret: string): string {
  const head = encode({ alg: 'HS256', typ: 'JWT' })
  const body = encode(claims)
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')
  return `${head}.${body}.${signature}`
}

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' }

/** Verifies signature and expiry; anything but a well-formed HS256 token fails. */
export function verifyJwt(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): JwtCheck {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return { ok: false, reason: 'malformed' }
  const [head, body, signature] = parts as [string, string, string]
  let header: unknown
  let claims: unknown
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'))
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  if (!header || typeof header !== 'object' || (header as { alg?: unknown }).alg !== 'HS256') return { ok: false, reason: 'malformed' }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return { ok: false, reason: 'malformed' }
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' }
  const exp = (claims as JwtClaims).exp
  if (exp !== undefined && (typeof exp !== 'number' || exp <= nowSeconds)) return { ok: false, reason: 'expired' }
  return { ok: true, claims: claims as JwtClaims }
}
