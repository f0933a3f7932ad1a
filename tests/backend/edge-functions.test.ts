import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserClient, UserClientFactory } from '../../supabase/functions/_shared/user-client.ts'
import { initUserTokens, SIGN_IN_FIRST } from '../../supabase/functions/init-user-tokens/handler.ts'
import { EDGE_FUNCTIONS } from '../../supabase/local/functions/registry.ts'
import { fetchServerTime } from '../../src/backend/server-clock.ts'
import { api, signUp, sql, startTestServer, supabaseClient, type TestServer } from './support/local-backend.ts'

// The edge functions' logic lives in one Fetch-API module per function, shared by Deno (hosted)
// and the local backend. Here: the handler on its own with a fake client, the same handler wired
// to the real supabase-js the way index.ts wires it on Deno, and the local backend serving it.

const post = (headers: Record<string, string> = {}) =>
  new Request('http://edge.test/functions/v1/init-user-tokens', { method: 'POST', headers })

/** A stand-in for supabase-js that records what the handler asks of it. */
function fakeClients(answers: { user?: { id: string } | null; rpc?: Awaited<ReturnType<UserClient['rpc']>> }) {
  const calls: string[] = []
  const clientFor: UserClientFactory = (token) => {
    calls.push(`client ${token}`)
    return {
      auth: {
        getUser: async (jwt) => {
          calls.push(`getUser ${jwt}`)
          return answers.user ? { data: { user: answers.user }, error: null } : { data: { user: null }, error: new Error('invalid JWT') }
        },
      },
      rpc: async (fn) => {
        calls.push(`rpc ${fn}`)
        return answers.rpc ?? { data: null, error: { message: 'no answer', code: 'XX000' } }
      },
    }
  }
  return { clientFor, calls }
}

describe('init-user-tokens handler (shared by Deno and the local backend)', () => {
  it('405 for anything but POST, 204 for the CORS preflight; no client is made', async () => {
    const { clientFor, calls } = fakeClients({})
    const handler = initUserTokens({ clientFor })
    const get = await handler(new Request('http://edge.test/x'))
    expect(get.status).toBe(405)
    expect(await get.json()).toEqual({ error: 'Method not allowed: use POST' })
    const preflight = await handler(new Request('http://edge.test/x', { method: 'OPTIONS' }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(calls).toEqual([])
  })

  it('401 without a bearer token, and when the auth service does not know the token', async () => {
    const { clientFor, calls } = fakeClients({ user: null })
    const handler = initUserTokens({ clientFor })
    for (const headers of [{}, { Authorization: 'Basic abc' }, { apikey: 'anon-key' }] as Record<string, string>[]) {
      const r = await handler(post(headers))
      expect(r.status).toBe(401)
      expect(await r.json()).toEqual({ error: SIGN_IN_FIRST })
    }
    expect(calls).toEqual([])
    const unknown = await handler(post({ Authorization: 'Bearer stale-token' }))
    expect(unknown.status).toBe(401)
    expect(await unknown.json()).toEqual({ error: 'Sign in first: a user access token is required' })
    expect(calls).toEqual(['client stale-token', 'getUser stale-token'])
  })

  it('200 { wallet } from public.init_user_tokens() called as the user; 400 { error, code } when SQL refuses', async () => {
    const wallet = { balance: 100, daily_earned: 0 }
    const ok = fakeClients({ user: { id: 'u1' }, rpc: { data: wallet, error: null } })
    const r = await initUserTokens({ clientFor: ok.clientFor })(post({ Authorization: 'Bearer user-token' }))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(await r.json()).toEqual({ wallet })
    expect(ok.calls).toEqual(['client user-token', 'getUser user-token', 'rpc init_user_tokens'])

    const refused = fakeClients({ user: { id: 'u1' }, rpc: { data: null, error: { message: 'not_authenticated', code: '42501' } } })
    const bad = await initUserTokens({ clientFor: refused.clientFor })(post({ Authorization: 'Bearer user-token' }))
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'not_authenticated', code: '42501' })
  })
})

describe('init-user-tokens served locally and wired to supabase-js', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  }, 60_000)
  afterAll(() => server?.close())

  it('is in the local registry', () => {
    expect(Object.keys(EDGE_FUNCTIONS)).toContain('init-user-tokens')
  })

  it('runs on Node with the real supabase-js against the local backend, as index.ts wires it on Deno', async () => {
    const user = await signUp(server, 'edge-deno@example.com')
    // The same factory index.ts passes (plus the WebSocket that supabase-js needs on Node 20).
    const clientFor: UserClientFactory = (accessToken) =>
      createClient(server.url, server.keys.anonKey, {
        global: { headers: { Authorization: `Bearer ${accessToken}` } },
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
      })
    const handler = initUserTokens({ clientFor })
    const r = await handler(post({ Authorization: `Bearer ${user.accessToken}` }))
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ wallet: { balance: 100, daily_earned: 0 } })
    const again = await handler(post({ Authorization: `Bearer ${user.accessToken}` }))
    expect(await again.json()).toEqual({ wallet: { balance: 100, daily_earned: 0 } })
    const anon = await handler(post({ Authorization: `Bearer ${server.keys.anonKey}` }))
    expect(anon.status).toBe(401)
  })

  it('the local backend answers the same: 200 once per user, 401 for anon or forged tokens, 405, 400 { error, code }', async () => {
    const user = await signUp(server, 'edge-local@example.com')
    const first = await api(server, '/functions/v1/init-user-tokens', { method: 'POST', token: user.accessToken })
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ wallet: { balance: 100, daily_earned: 0 } })
    expect((await api(server, '/api/init-user-tokens', { method: 'POST', token: user.accessToken })).json).toEqual({
      wallet: { balance: 100, daily_earned: 0 },
    })
    expect(
      (
        await sql<{ n: number }>(server, "select count(*)::int as n from public.token_ledger where user_id = $1 and reason = 'welcome'", [
          user.id,
        ])
      )[0]!.n,
    ).toBe(1)

    for (const token of [undefined, server.keys.anonKey, `${user.accessToken.slice(0, -4)}AAAA`]) {
      const r = await api(server, '/functions/v1/init-user-tokens', { method: 'POST', token })
      expect(r.status).toBe(401)
      expect(r.json).toEqual({ error: SIGN_IN_FIRST })
    }
    expect((await api(server, '/functions/v1/init-user-tokens', { method: 'GET', token: user.accessToken })).status).toBe(405)

    // A valid token for a user that no longer exists: the SQL function's refusal, as Deno reports it.
    const gone = await signUp(server, 'edge-gone@example.com')
    await sql(server, 'delete from auth.users where id = $1', [gone.id])
    const refused = await api(server, '/functions/v1/init-user-tokens', { method: 'POST', token: gone.accessToken })
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({ code: '23503', error: expect.any(String) })
  })
})

describe('server-clock served locally (public, never cached)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  }, 60_000)
  afterAll(() => server?.close())

  it('a signed-out GET gets the server time now, with Cache-Control no-store; other methods are refused', async () => {
    for (const headers of [{}, { apikey: server.keys.anonKey }] as Record<string, string>[]) {
      const before = Date.now()
      const r = await fetch(`${server.url}/functions/v1/server-clock`, { headers })
      const after = Date.now()
      expect(r.status).toBe(200)
      expect(r.headers.get('cache-control')).toBe('no-store')
      const { now } = (await r.json()) as { now: number }
      // The test and the server share this machine's clock: the answer lies inside the round trip.
      expect(now).toBeGreaterThanOrEqual(before)
      expect(now).toBeLessThanOrEqual(after)
    }
    const post = await api(server, '/functions/v1/server-clock', { method: 'POST', body: {} })
    expect(post.status).toBe(405)
    expect(post.json).toEqual({ error: 'Method not allowed: use GET' })
  })

  it("the app's call (supabase-js, signed out) reads the same time", async () => {
    const before = Date.now()
    const now = await fetchServerTime(supabaseClient(server))
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })
})
