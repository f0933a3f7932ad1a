import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signJwt, verifyJwt } from '../../supabase/local/core/jwt.ts'
import { DEFAULT_LOCAL_JWT_SECRET, LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/core/local-keys.ts'

// The local backend signs and verifies with jose. Tokens issued before (a hand-written HS256, the
// same bytes GoTrue and the Supabase CLI produce) must keep verifying, and the keys must not move.

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')

/** The HS256 signer the backend used before jose, kept here as the reference. */
function signTheOldWay(claims: unknown, secret: string, header: unknown = { alg: 'HS256', typ: 'JWT' }): string {
  const head = b64(header)
  const body = b64(claims)
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`
}

const SECRET = DEFAULT_LOCAL_JWT_SECRET
const now = () => Math.floor(Date.now() / 1000)

describe('JWT with jose', () => {
  it('signs byte for byte what the old signer produced, for the API keys and for session claims', async () => {
    expect(LOCAL_ANON_KEY).toBe(signTheOldWay({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 }, SECRET))
    expect(LOCAL_SERVICE_ROLE_KEY).toBe(signTheOldWay({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 }, SECRET))
    const session = {
      iss: 'http://127.0.0.1/auth/v1',
      sub: 'a0000000-0000-4000-8000-000000000001',
      aud: 'authenticated',
      exp: now() + 3600,
      iat: now(),
      role: 'authenticated',
      amr: [{ method: 'password', timestamp: now() }],
    }
    expect(await signJwt(session, SECRET)).toBe(signTheOldWay(session, SECRET))
  })

  it('verifies tokens signed the old way and keeps their claims', async () => {
    const claims = {
      sub: 'a0000000-0000-4000-8000-000000000001',
      role: 'authenticated',
      exp: now() + 60,
      app_metadata: { provider: 'email' },
    }
    expect(await verifyJwt(signTheOldWay(claims, SECRET), SECRET)).toEqual({ ok: true, claims })
    // No exp at all is refused: such a token would never expire (tests/backend/integrity-jwt-secret.test.ts).
    expect(await verifyJwt(signTheOldWay({ role: 'anon' }, SECRET), SECRET)).toEqual({ ok: false, reason: 'missing_exp' })
  })

  it('gives the same reasons as before: expired, bad signature, malformed', async () => {
    expect(await verifyJwt(signTheOldWay({ role: 'anon', exp: now() - 1 }, SECRET), SECRET)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyJwt(signTheOldWay({ role: 'anon', exp: 'never' }, SECRET), SECRET)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyJwt(signTheOldWay({ role: 'anon', exp: 2000 }, SECRET), SECRET, 1999)).toMatchObject({ ok: true })
    expect(await verifyJwt(signTheOldWay({ role: 'anon' }, 'another-secret-of-sufficient-length-123'), SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    })
    const [head, body] = signTheOldWay({ role: 'anon' }, SECRET).split('.')
    expect(await verifyJwt(`${head}.${body}.${b64('x'.repeat(32))}`, SECRET)).toEqual({ ok: false, reason: 'bad_signature' })
    for (const token of [
      'garbage',
      `${head}.${body}`,
      `${head}.${body}.`,
      `${head}.${body}.sig=`,
      signTheOldWay([1, 2], SECRET),
      signTheOldWay('"just a string"', SECRET),
      signTheOldWay({ role: 'anon' }, SECRET, { alg: 'HS512', typ: 'JWT' }),
      signTheOldWay({ role: 'anon' }, SECRET, { alg: 'none' }),
      `${b64('{"alg":"HS256"')}.${body}.${b64('sig')}`,
    ]) {
      expect(await verifyJwt(token, SECRET), token).toEqual({ ok: false, reason: 'malformed' })
    }
  })

  it("remembers a verified token as PostgREST's JWT cache does, but still expires it and never lends it to another secret", async () => {
    const token = signTheOldWay({ role: 'anon', exp: 5000 }, SECRET)
    expect(await verifyJwt(token, SECRET, 4000)).toMatchObject({ ok: true, claims: { exp: 5000 } })
    // Remembered now: the same token past its exp is still refused as expired.
    expect(await verifyJwt(token, SECRET, 5000)).toEqual({ ok: false, reason: 'expired' })
    // A server with another secret must check the signature itself, whatever this one remembered.
    expect(await verifyJwt(token, 'another-secret-of-sufficient-length-123', 4000)).toEqual({ ok: false, reason: 'bad_signature' })
    // The claims handed out are a copy: a caller changing them does not change the next answer.
    const first = await verifyJwt(token, SECRET, 4000)
    if (first.ok) first.claims.role = 'service_role'
    expect(await verifyJwt(token, SECRET, 4000)).toMatchObject({ ok: true, claims: { role: 'anon' } })
  })
})
