import { AuthApiError } from '@supabase/supabase-js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SIGNUP_RATE_LIMITED } from '../lib/error-message.ts'
import { signUp } from './auth.ts'

// Sign-ups are rate-limited per client address (GoTrue's 429 over_request_rate_limit,
// "Request rate limit reached"). The sign-up form shows what that means, in words.

const authSignUp = vi.fn()
vi.mock('./client.ts', () => ({
  supabase: () => ({
    rpc: async () => ({ data: null, error: null }),
    auth: { signUp: authSignUp },
  }),
}))

afterEach(() => vi.unstubAllGlobals())

describe('signUp', () => {
  it('turns the per-address sign-up limit into words', async () => {
    vi.stubGlobal('window', { location: { origin: 'http://127.0.0.1:8080' } })
    authSignUp.mockResolvedValueOnce({
      data: { user: null, session: null },
      error: new AuthApiError('Request rate limit reached', 429, 'over_request_rate_limit'),
    })
    expect(await signUp('listener_one', 'one@example.com', 'a-long-password')).toEqual({
      ok: false,
      kind: 'error',
      message: SIGNUP_RATE_LIMITED,
    })
    expect(SIGNUP_RATE_LIMITED).toMatch(/Too many accounts were created from your network in the last hour/)
  })
})
