import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createBackend } from '../../supabase/local/core/backend.ts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { signJwt } from '../../supabase/local/core/jwt.ts'
import { DEFAULT_LOCAL_JWT_SECRET } from '../../supabase/local/core/local-keys.ts'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { api, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { CATALOGUE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'

// Bad input gets a JSON 4xx with a clear code and message, and the server keeps serving.

let server: TestServer
let user: TestUser

beforeAll(async () => {
  server = await startTestServer()
  user = await signUp(server, 'careful@example.com', 'careful-pass', 'careful')
}, 60_000)
afterAll(() => server?.close())

async function expectJsonError(r: Awaited<ReturnType<typeof api>>, status: number, code?: string) {
  expect(r.status, r.text).toBe(status)
  expect(r.headers.get('content-type')).toMatch(/application\/json/)
  expect(r.json).toBeTypeOf('object')
  if (code) expect(r.json.code).toBe(code)
  // ...and the next ordinary request still works.
  const ok = await api(server, '/rest/v1/songs?select=id&id=eq.neon-drift')
  expect(ok.json).toEqual([{ id: 'neon-drift' }])
}

const now = () => Math.floor(Date.now() / 1000)

describe('malformed requests', () => {
  it('refuses to listen beyond loopback with the public demo JWT secret', async () => {
    await expect(startLocalServer({ host: '0.0.0.0', port: 0, jwtSecret: DEFAULT_LOCAL_JWT_SECRET })).rejects.toThrow(/LOCAL_JWT_SECRET/)
  })

  it('a request body the client abandons half-way is not logged as a server fault; the server answers the next one', async () => {
    const errors = vi.spyOn(console, 'error')
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/rest/v1/rpc/my_trust_status',
          headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json', 'Content-Length': '100000' },
        })
        req.on('error', () => resolve())
        req.on('response', () => reject(new Error('answered before the body was sent')))
        // A closed tab: the first kilobyte of the body, then the connection is gone.
        req.write(`{"a":"${'x'.repeat(1000)}`, () => setTimeout(() => req.destroy(), 50))
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(errors.mock.calls.filter(([first]) => String(first).startsWith('local backend'))).toEqual([])
    } finally {
      errors.mockRestore()
    }
    expect((await api(server, '/rest/v1/songs?select=id&limit=1')).status).toBe(200)
  })

  it('bad JSON bodies', async () => {
    await expectJsonError(await api(server, '/rest/v1/playlists', { token: user.accessToken, body: '{"name": ' }), 400, 'PGRST102')
    await expectJsonError(await api(server, '/rest/v1/rpc/listen_start', { token: user.accessToken, body: '[1,2' }), 400, 'PGRST102')
    await expectJsonError(await api(server, '/rest/v1/rpc/listen_start', { token: user.accessToken, body: [1, 2] }), 400, 'PGRST102')
    await expectJsonError(await api(server, '/auth/v1/signup', { body: 'not json' }), 400, 'bad_json')
    // As PostgREST (InsertSpec "rejects json array that isn't exclusivily composed of objects" / "has objects with different keys").
    await expectJsonError(await api(server, '/rest/v1/playlists', { token: user.accessToken, body: [{ name: 'a' }, 1] }), 400, 'PGRST102')
    await expectJsonError(
      await api(server, '/rest/v1/playlists', { token: user.accessToken, body: [{ name: 'a' }, { name: 'b', is_public: true }] }),
      400,
      'PGRST102',
    )
    // An empty array (or null) inserts nothing and answers 201 [], as PostgREST ("returns empty array when no items inserted").
    const none = await api(server, '/rest/v1/playlists', {
      token: user.accessToken,
      body: [],
      headers: { Prefer: 'return=representation' },
    })
    expect([none.status, none.json]).toEqual([201, []])
  })

  it('unknown tables, columns, functions and bad filters are refused, never answered wrongly', async () => {
    const t = user.accessToken
    await expectJsonError(await api(server, '/rest/v1/wallets', { token: t }), 400, 'PGRST205')
    await expectJsonError(await api(server, '/rest/v1/songs?select=id,price'), 400, '42703')
    await expectJsonError(await api(server, '/rest/v1/songs?price=eq.1'), 400, '42703')
    await expectJsonError(await api(server, '/rest/v1/songs?order=price.desc'), 400, '42703')
    await expectJsonError(await api(server, '/rest/v1/songs?reward=cs.{1}'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?reward=5'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?or=(reward.eq.2,reward.eq.5)'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?select=id,title::int'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?select=id,profiles(*)'), 400, 'PGRST200')
    // PostgREST RangeSpec "fails if limit is negative": 416 PGRST103.
    await expectJsonError(await api(server, '/rest/v1/songs?limit=-1'), 416, 'PGRST103')
    await expectJsonError(await api(server, '/rest/v1/songs?limit=lots'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?reward=gt.lots'), 400, '22P02')
    await expectJsonError(await api(server, '/rest/v1/playlists?id=eq.not-a-uuid', { token: t }), 400, '22P02')
    await expectJsonError(await api(server, '/rest/v1/songs?reward=is.maybe'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/songs?select=id&id=in.("a'), 400, 'PGRST100')
    await expectJsonError(await api(server, '/rest/v1/rpc/mint_free_money', { token: t, body: {} }), 404, 'PGRST202')
    await expectJsonError(
      await api(server, '/rest/v1/rpc/listen_start', { token: t, body: { p_song_id: 'x', p_play_id: 'p', p_bonus: 100 } }),
      404,
      'PGRST202',
    )
    await expectJsonError(await api(server, '/rest/v1/songs', { headers: { 'Accept-Profile': 'auth' } }), 406, 'PGRST106')
    await expectJsonError(await api(server, '/rest/v1/songs', { method: 'PUT', body: {} }), 405, 'PGRST117')
  })

  it('identifiers cannot inject SQL and values are data, not SQL', async () => {
    await expectJsonError(await api(server, `/rest/v1/songs?select=${encodeURIComponent('id"; drop table public.songs; --')}`), 400)
    await expectJsonError(await api(server, `/rest/v1/${encodeURIComponent('songs"; drop table public.songs; --')}`), 400, 'PGRST205')
    const name = "Robert'); drop table public.playlists; --"
    const created = await api(server, '/rest/v1/playlists?select=name', {
      token: user.accessToken,
      body: { name },
      headers: { Prefer: 'return=representation' },
    })
    expect(created.status).toBe(201)
    expect(created.json).toEqual([{ name }])
    const found = await api(server, `/rest/v1/playlists?select=name&name=eq.${encodeURIComponent(name)}`, { token: user.accessToken })
    expect(found.json).toEqual([{ name }])
    expect((await sql(server, 'select count(*)::int as n from public.songs'))[0]).toEqual({ n: CATALOGUE_SONGS.length })
  })

  it('expired, forged, role-escalating and garbage JWTs get 401, not the anon role', async () => {
    const secret = server.keys.jwtSecret
    const claims = { sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email }
    const expired = await signJwt({ ...claims, exp: now() - 10 }, secret)
    const forged = await signJwt({ ...claims, exp: now() + 3600 }, 'not-the-server-secret-but-long-enough')
    const superuser = await signJwt({ ...claims, role: 'postgres', exp: now() + 3600 }, secret)
    const b64 = (text: string) => Buffer.from(text).toString('base64url')
    const noneAlg = `${b64('{"alg":"none","typ":"JWT"}')}.${b64(JSON.stringify(claims))}.`
    await expectJsonError(await api(server, '/rest/v1/user_tokens', { token: expired }), 401, 'PGRST303')
    await expectJsonError(await api(server, '/rest/v1/user_tokens', { token: forged }), 401, 'PGRST301')
    await expectJsonError(await api(server, '/rest/v1/user_tokens', { token: superuser }), 401, 'PGRST301')
    await expectJsonError(await api(server, '/rest/v1/user_tokens', { token: noneAlg }), 401, 'PGRST301')
    await expectJsonError(await api(server, '/rest/v1/user_tokens', { token: 'garbage' }), 401, 'PGRST301')
    // The service role's local key is public (the Supabase CLI demo key): not served at all.
    const service = await api(server, '/rest/v1/user_tokens', { method: 'PATCH', token: server.keys.serviceRoleKey, body: { balance: 1 } })
    await expectJsonError(service, 401, 'PGRST301')
    expect((await sql<{ n: number }>(server, 'select count(*)::int as n from public.user_tokens where balance = 1'))[0]!.n).toBe(0)
    await expectJsonError(await api(server, '/auth/v1/user', { token: forged }), 403, 'bad_jwt')
    await expectJsonError(await api(server, '/auth/v1/user', { token: expired }), 403, 'bad_jwt')
    await expectJsonError(await api(server, '/auth/v1/user'), 401, 'no_authorization')
    await expectJsonError(await api(server, '/functions/v1/init-user-tokens', { method: 'POST', token: forged }), 401)
  })

  it('an idle keep-alive connection is kept past 5 s: a client reusing it is answered, not reset', async () => {
    // Node's default (5 s) closed sockets just as Playwright's request API reused them (ECONNRESET).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const get = () =>
      new Promise<{ status: number; reused: boolean; keepAlive: string | undefined }>((resolve, reject) => {
        const req = request(`${server.url}/rest/v1/songs?select=id&limit=1`, { agent, headers: { apikey: server.keys.anonKey } }, (res) => {
          res.resume()
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, keepAlive: res.headers['keep-alive']?.toString() }),
          )
        })
        req.on('error', reject)
        req.end()
      })
    try {
      const first = await get()
      expect(first).toMatchObject({ status: 200, reused: false, keepAlive: 'timeout=65' })
      await new Promise((r) => setTimeout(r, 6_000))
      expect(await get()).toMatchObject({ status: 200, reused: true })
    } finally {
      agent.destroy()
    }
  }, 20_000)

  it('oversized bodies get 413 without being buffered whole', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })
    await expectJsonError(await api(server, '/rest/v1/playlists', { token: user.accessToken, body: big }), 413, 'PGRST413')
    // Chunked, no Content-Length: cut off while streaming.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/auth/v1/signup`,
        { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      for (let i = 0; i < 40; i++) req.write('x'.repeat(64 * 1024))
      req.end()
    })
    expect(status).toBe(413)
    await expectJsonError(await api(server, '/rest/v1/nothing-here'), 400, 'PGRST205')
  })

  it('unknown routes and methods under the API prefixes are JSON 404/405', async () => {
    await expectJsonError(await api(server, '/auth/v1/admin/users'), 404, 'not_found')
    await expectJsonError(await api(server, '/functions/v1/mint-money', { method: 'POST' }), 404, 'not_found')
    await expectJsonError(await api(server, '/api/whatever'), 404, 'not_found')
    await expectJsonError(await api(server, '/rest/v1/songs/extra/path'), 404, 'PGRST125')
    await expectJsonError(await api(server, '/functions/v1/init-user-tokens', { token: user.accessToken }), 405)
    await expectJsonError(await api(server, '/auth/v1/token?grant_type=magic', { body: {} }), 400, 'unsupported_grant_type')
  })

  it('LOCAL_EMAIL_SIGNUP=off answers sign-ups as a project with e-mail sign-up disabled', async () => {
    const backend = await createBackend(server.db, { jwtSecret: server.keys.jwtSecret, emailSignup: false, bcryptRounds: 4 })
    const http = createServer((req, res) => void backend.handle(req, res))
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
      const r = await fetch(`${url}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'new@example.com', password: 'long-enough' }),
      })
      expect(r.status).toBe(422)
      expect(await r.json()).toMatchObject({ code: 'email_provider_disabled', msg: 'Email signups are disabled' })
      const login = await fetch(`${url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        body: JSON.stringify({ email: user.email, password: user.password }),
      })
      expect(login.status).toBe(200)
    } finally {
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    }
  })

  it('auth validation: bad e-mail, short password, duplicate account, wrong password', async () => {
    await expectJsonError(
      await api(server, '/auth/v1/signup', { body: { email: 'not-an-email', password: 'long-enough' } }),
      400,
      'validation_failed',
    )
    const weak = await api(server, '/auth/v1/signup', { body: { email: 'weak@example.com', password: '123' } })
    await expectJsonError(weak, 422, 'weak_password')
    expect(weak.json.weak_password.reasons).toEqual(['length'])
    await expectJsonError(
      await api(server, '/auth/v1/signup', { body: { email: 'CAREFUL@example.com', password: 'another-pass' } }),
      422,
      'user_already_exists',
    )
    await expectJsonError(
      await api(server, '/auth/v1/token?grant_type=password', { body: { email: user.email, password: 'wrong-pass' } }),
      400,
      'invalid_credentials',
    )
    await expectJsonError(
      await api(server, '/auth/v1/token?grant_type=password', { body: { email: 'nobody@example.com', password: 'wrong-pass' } }),
      400,
      'invalid_credentials',
    )
    await expectJsonError(
      await api(server, '/auth/v1/token?grant_type=refresh_token', { body: { refresh_token: 'made-up' } }),
      400,
      'refresh_token_not_found',
    )
  })
})
