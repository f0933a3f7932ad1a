import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAiStandIn, type AiStandIn } from './support/ai-stand-in.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'

// docs/security.md items 8 and 10, attacked through raw HTTP with ordinary (and administrator) accounts:
// a stored provider key cannot be redirected to another server, the server calls no internal
// address for anyone (SSRF), and ai-text is metered per user and site-wide. No traffic leaves
// this machine: the "providers" are local stand-ins, and refused URLs are refused before any call.

const KEY = 'sk-victim-entered-this-key-4242'
const configure = (server: TestServer, admin: TestUser, body: { key: string | null; baseUrl: string; model?: string }) =>
  rpc(server, admin.accessToken, 'admin_save_ai_settings', {
    p_category: 'text',
    p_provider: body.model ?? 'Custom Endpoint',
    p_model: body.model ?? 'Custom Endpoint',
    p_base_url: body.baseUrl,
    p_api_key: body.key,
  })
const testConnection = (server: TestServer, admin: TestUser) =>
  api(server, '/functions/v1/ai-test-connection', { token: admin.accessToken, body: { category: 'text' } })
const generate = (server: TestServer, user: TestUser, prompt = 'Describe a synthwave NFT') =>
  api(server, '/functions/v1/ai-text', { token: user.accessToken, body: { prompt } })
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`

/** Starts a server whose outbound policy allows the stand-ins on 127.0.0.1 (read once, at start). */
async function allowingLocalProviders<T>(start: () => Promise<T>): Promise<T> {
  process.env.AI_PROVIDER_ALLOWED_HOSTS = '127.0.0.1'
  try {
    return await start()
  } finally {
    delete process.env.AI_PROVIDER_ALLOWED_HOSTS
  }
}

describe('a stored key stays with the destination it was entered for', () => {
  let server: TestServer
  let honest: AiStandIn
  let attacker: AiStandIn
  let admin: TestUser
  beforeAll(async () => {
    honest = await startAiStandIn(KEY)
    attacker = await startAiStandIn('attacker-does-not-know-the-key')
    server = await allowingLocalProviders(() => startTestServer({ adminEmails: ['key-admin@example.com'] }))
    admin = await signUp(server, 'key-admin@example.com', 'admin-pass-1')
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await honest?.close()
    await attacker?.close()
  })

  it(
    'changing the base URL (or provider, or model) without entering the key again clears it; the new server never ' + 'receives it',
    async () => {
      expect((await configure(server, admin, { key: KEY, baseUrl: honest.url })).status).toBe(200)
      expect((await testConnection(server, admin)).json.ok).toBe(true)

      const moved = await configure(server, admin, { key: null, baseUrl: attacker.url })
      expect(moved.status, moved.text).toBe(200)
      expect(moved.json.api_key_mask).toBeNull()
      expect(await sql(server, "select name from public.admin_secrets where name = 'ai_key:text'")).toEqual([])
      await testConnection(server, admin)
      const user = await signUp(server, `key-user-${unique()}@example.com`)
      await generate(server, user)
      expect(attacker.requests.length).toBeGreaterThan(0)
      expect(attacker.requests.map((r) => r.authorization ?? '').join(' ')).not.toContain(KEY)

      // Same destination, key kept: still there. Another model for the same URL: cleared again.
      await configure(server, admin, { key: KEY, baseUrl: honest.url })
      expect((await configure(server, admin, { key: null, baseUrl: honest.url })).json.api_key_mask).not.toBeNull()
      expect((await configure(server, admin, { key: null, baseUrl: honest.url, model: 'GPT-4' })).json.api_key_mask).toBeNull()
      expect(await sql(server, "select name from public.admin_secrets where name = 'ai_key:text'")).toEqual([])
    },
  )
})

describe('provider calls go only to https hosts with public addresses', () => {
  let server: TestServer
  let admin: TestUser
  let user: TestUser
  let local: AiStandIn
  beforeAll(async () => {
    local = await startAiStandIn(KEY)
    delete process.env.AI_PROVIDER_ALLOWED_HOSTS
    server = await startTestServer({ adminEmails: ['ssrf-admin@example.com'] })
    admin = await signUp(server, 'ssrf-admin@example.com', 'admin-pass-1')
    user = await signUp(server, `ssrf-user-${unique()}@example.com`)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await local?.close()
  })

  const port = () => new URL(local.url).port
  const cases: [string, () => string, RegExp][] = [
    ['plain http', () => `http://127.0.0.1:${port()}/v1`, /over https only/],
    ['http to a public name (refused before any lookup)', () => 'http://example.com/v1', /over https only/],
    ['127.0.0.1', () => `https://127.0.0.1:${port()}/v1`, /127\.0\.0\.1 is a loopback, private/],
    ['10.x', () => 'https://10.1.2.3/v1', /10\.1\.2\.3 is a loopback, private/],
    ['172.16/12', () => 'https://172.31.255.1/v1', /is a loopback, private/],
    ['192.168/16', () => 'https://192.168.0.1/v1', /is a loopback, private/],
    ['cloud metadata 169.254.169.254', () => 'https://169.254.169.254/latest', /is a loopback, private/],
    ['0.0.0.0', () => `https://0.0.0.0:${port()}/v1`, /is a loopback, private/],
    ['[::1]', () => `https://[::1]:${port()}/v1`, /::1 is a loopback, private/],
    ['IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${port()}/v1`, /is a loopback, private/],
    ['fc00::/7', () => 'https://[fd12:3456::1]/v1', /is a loopback, private/],
    ['fe80::/10', () => 'https://[fe80::1]/v1', /is a loopback, private/],
    ['a name resolving to loopback (localhost)', () => `https://localhost:${port()}/v1`, /is a loopback, private/],
    ['decimal IPv4 (2130706433 = 127.0.0.1)', () => `https://2130706433:${port()}/v1`, /127\.0\.0\.1 is a loopback, private/],
  ]
  for (const [name, baseUrl, why] of cases) {
    it(`refuses ${name}, in Test connection and in ai-text`, async () => {
      const saved = await configure(server, admin, { key: KEY, baseUrl: baseUrl() })
      expect(saved.status, saved.text).toBe(200)
      const test = await testConnection(server, admin)
      expect(test.json.ok).toBe(false)
      expect(test.json.message).toMatch(/^Refused to call /)
      expect(test.json.message).toMatch(why)
      const text = await generate(server, user)
      expect(text.status).toBe(502)
      expect(text.json.error).toMatch(why)
    })
  }
  it('sent nothing to the local stand-in', () => {
    expect(local.requests).toEqual([])
  })
})

describe.each(DATABASES)('ai-text daily quotas on %s', (database) => {
  let server: TestServer
  let stop: () => Promise<void>
  let provider: AiStandIn
  let admin: TestUser
  beforeAll(async () => {
    provider = await startAiStandIn(KEY)
    ;({ server, stop } = await allowingLocalProviders(() => serverOn(database)))
    admin = await signUp(server, `quota-admin-${unique()}@example.com`, 'admin-pass-1')
    await sql(server, 'insert into public.administrators (user_id) values ($1)', [admin.id])
    expect((await configure(server, admin, { key: KEY, baseUrl: provider.url })).status).toBe(200)
  }, 120_000)
  afterAll(async () => {
    await stop?.()
    await provider?.close()
  })

  it('20 concurrent calls of one user: exactly the per-user quota (3) reach the provider, the rest get a clear 429', async () => {
    await sql(server, 'update public.ai_text_quota set per_user_daily = 3, global_daily = 1000')
    const user = await signUp(server, `quota-user-${unique()}@example.com`)
    const before = provider.requests.length
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => generate(server, user, `prompt ${i}`)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3)
    const refused = answers.filter((a) => a.status === 429)
    expect(refused).toHaveLength(17)
    expect(refused[0]!.json).toEqual({
      error: "You have used today's 3 AI text generations; more are available after 00:00 UTC.",
      code: 'ai_quota_user',
    })
    expect(provider.requests.length - before).toBe(3)
    expect(await sql(server, 'select calls from public.ai_text_usage where user_id = $1', [user.id])).toEqual([{ calls: 3 }])
  })

  it('three users racing against a site-wide quota of 4: exactly 4 succeed in all', async () => {
    const used = (
      await sql<{ calls: number }>(
        server,
        "select coalesce(sum(calls), 0)::int as calls from public.ai_text_usage_total where day = (now() at time zone 'utc')::date",
      )
    )[0]!.calls
    await sql(server, 'update public.ai_text_quota set per_user_daily = 3, global_daily = $1', [used + 4])
    const users = await Promise.all([1, 2, 3].map(() => signUp(server, `quota-many-${unique()}@example.com`)))
    const answers = await Promise.all(users.flatMap((u) => Array.from({ length: 5 }, () => generate(server, u))))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4)
    expect(answers.filter((a) => a.status === 429).every((a) => /^(You have|The site has) used today's/.test(a.json.error as string))).toBe(
      true,
    )
    expect(answers.some((a) => a.json?.code === 'ai_quota_global')).toBe(true)
    const total = (
      await sql<{ calls: number }>(server, "select calls from public.ai_text_usage_total where day = (now() at time zone 'utc')::date")
    )[0]!.calls
    expect(total).toBe(used + 4)
    const perUser = await sql<{ calls: number }>(server, 'select calls from public.ai_text_usage where user_id = any($1::uuid[])', [
      users.map((u) => u.id),
    ])
    expect(perUser.reduce((s, r) => s + r.calls, 0)).toBe(4)
  })

  it('the quota is the server’s: a user cannot take, reset or read it', async () => {
    const user = await signUp(server, `quota-self-${unique()}@example.com`)
    expect([401, 403, 404]).toContain((await rpc(server, user.accessToken, 'ai_text_take', { p_user: user.id })).status)
    expect([401, 403, 404]).toContain((await api(server, '/rest/v1/ai_text_usage', { token: user.accessToken, method: 'DELETE' })).status)
    expect([401, 403, 404]).toContain((await api(server, '/rest/v1/ai_text_quota', { token: user.accessToken })).status)
  })
})
