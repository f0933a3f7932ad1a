import { describe, expect, it } from 'vitest'
import { LOCAL_ANON_KEY as APP_DEFAULT_ANON_KEY } from '../../src/backend/local-defaults.ts'
import { verifyJwt } from '../../supabase/local/core/jwt.ts'
import { DEFAULT_LOCAL_JWT_SECRET, LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY, localKeys } from '../../supabase/local/core/local-keys.ts'

describe('local keys', () => {
  it('the app default anon key is the one the local backend signs', async () => {
    expect(APP_DEFAULT_ANON_KEY).toBe(LOCAL_ANON_KEY)
    expect((await localKeys(DEFAULT_LOCAL_JWT_SECRET)).anonKey).toBe(APP_DEFAULT_ANON_KEY)
  })

  it('the anon key is an anon-role HS256 JWT valid under the local secret, and nothing else', async () => {
    const check = await verifyJwt(APP_DEFAULT_ANON_KEY, DEFAULT_LOCAL_JWT_SECRET)
    expect(check.ok && check.claims.role).toBe('anon')
    expect((await verifyJwt(APP_DEFAULT_ANON_KEY, 'another-secret-of-sufficient-length-123')).ok).toBe(false)
    const service = await verifyJwt(LOCAL_SERVICE_ROLE_KEY, DEFAULT_LOCAL_JWT_SECRET)
    expect(service.ok && service.claims.role).toBe('service_role')
  })

  it('a different LOCAL_JWT_SECRET re-signs both keys', async () => {
    const keys = await localKeys('another-secret-of-sufficient-length-123')
    expect(keys.anonKey).not.toBe(LOCAL_ANON_KEY)
    expect((await verifyJwt(keys.anonKey, 'another-secret-of-sufficient-length-123')).ok).toBe(true)
  })
})
