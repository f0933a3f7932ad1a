import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAiStandIn, type AiStandIn } from './support/ai-stand-in.ts'
import { api, rpc, signUp, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// Test connection and server-side text generation through the admin's provider settings, against
// a local stand-in provider: the key is used by the server only, never answered to a browser.

const KEY = 'sk-stand-in-secret-7777'
let server: TestServer
let provider: AiStandIn
let admin: TestUser
let user: TestUser

beforeAll(async () => {
  provider = await startAiStandIn(KEY)
  // The stand-in is on this machine: allow it, as a developer allows a local model server
  // (outbound calls otherwise go only to https hosts with public addresses).
  process.env.AI_PROVIDER_ALLOWED_HOSTS = '127.0.0.1'
  server = await startTestServer({ adminEmails: ['ai-admin@example.com'] })
  delete process.env.AI_PROVIDER_ALLOWED_HOSTS
  admin = await signUp(server, 'ai-admin@example.com', 'admin-pass-1', 'aiadmin')
  user = await signUp(server, 'ai-user@example.com', 'user-pass-1', 'aiuser')
}, 60_000)
afterAll(async () => {
  await server?.close()
  await provider?.close()
})

const configure = (key: string | null, baseUrl = provider.url, model = 'Custom Endpoint') =>
  rpc(server, admin.accessToken, 'admin_save_ai_settings', {
    p_category: 'text',
    p_provider: model,
    p_model: model,
    p_base_url: baseUrl,
    p_api_key: key,
  })
const testConnection = (token: string | undefined, category = 'text') =>
  api(server, '/functions/v1/ai-test-connection', { token, body: { category } })
const generate = (token: string | undefined, prompt: string) => api(server, '/functions/v1/ai-text', { token, body: { prompt } })

describe('Test connection', () => {
  it('is for administrators only', async () => {
    expect((await testConnection(undefined)).status).toBe(401)
    expect((await testConnection(user.accessToken)).status).toBe(403)
  })

  it('reports success with what the provider answered, and a clear failure for a wrong key or a dead address', async () => {
    await configure(KEY)
    const ok = await testConnection(admin.accessToken)
    expect(ok.json).toEqual({ ok: true, message: 'Connected: 2 models available (stand-in-small, stand-in-large).' })
    expect(provider.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', authorization: `Bearer ${KEY}` })
    expect(ok.text).not.toContain(KEY)

    await configure('sk-wrong-key-0000')
    expect((await testConnection(admin.accessToken)).json).toEqual({
      ok: false,
      message: 'The provider answered 401: Incorrect API key provided.',
    })

    await configure(KEY, 'http://127.0.0.1:9/v1')
    const dead = await testConnection(admin.accessToken)
    expect(dead.json.ok).toBe(false)
    expect(dead.json.message).toMatch(/^The provider could not be reached/)

    await configure(null, '', 'MusicGen')
    expect((await testConnection(admin.accessToken)).json).toEqual({
      ok: false,
      message: 'MusicGen has no public API this server can call: choose Custom Endpoint and give the base URL of your deployment.',
    })
    expect((await testConnection(admin.accessToken, 'video')).status).toBe(400)
  })
})

describe('server-side text generation', () => {
  it('answers 204 while Text AI is the built-in generator, so the client uses its own', async () => {
    await rpc(server, admin.accessToken, 'admin_save_ai_settings', {
      p_category: 'text',
      p_provider: 'On-device (built in)',
      p_model: 'On-device (built in)',
      p_base_url: null,
      p_api_key: '',
    })
    expect((await generate(user.accessToken, 'Describe a synthwave NFT')).status).toBe(204)
  })

  it('uses the configured provider with the stored key for any signed-in user; visitors and bad input are refused', async () => {
    await configure(KEY)
    const answer = await generate(user.accessToken, 'Describe the NFT "Neon Drift"')
    expect(answer.status, answer.text).toBe(200)
    expect(answer.json).toEqual({ text: 'Stand-in (Custom Endpoint) says: Describe the NFT "Neon Drift"', provider: 'Custom Endpoint' })
    expect(provider.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${KEY}` })
    expect((await generate(undefined, 'x')).status).toBe(401)
    expect((await generate(user.accessToken, '')).status).toBe(400)
    expect((await generate(user.accessToken, 'x'.repeat(4001))).status).toBe(400)
    await configure(KEY, 'http://127.0.0.1:9/v1')
    const down = await generate(user.accessToken, 'hello')
    expect(down.status).toBe(502)
    expect(down.json.error).toMatch(/could not be reached/)
  })
})
