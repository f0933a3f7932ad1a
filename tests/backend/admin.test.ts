import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, rpc, signUp, sql, startTestServer, type TestServer, type TestUser } from './support/local-backend.ts'
import { rlsContext, rlsMatrixTests, type Expectation, type RlsCase } from './support/rls-matrix.ts'

// The Admin Dashboard's server side: only administrators read or change anything; secrets are
// never answered by any API, administrators included; every change is audited.
// In the matrix "owner" is an administrator and "other" an ordinary account.

let server: TestServer
let admin: TestUser
let user: TestUser
const KB = '55555555-5555-4555-8555-555555555555'
const NEW_KB = '66666666-6666-4666-8666-666666666666'
const SECRET = 'sk-test-0123456789abcdefWXYZ'

beforeAll(async () => {
  server = await startTestServer({ adminEmails: ['boss@example.com'] })
  admin = await signUp(server, 'boss@example.com', 'boss-pass-1', 'boss')
  user = await signUp(server, 'plain@example.com', 'plain-pass-1', 'plain')
}, 60_000)
afterAll(() => server?.close())

const adminOnlyRead: Expectation = {
  anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
  other: { select: 'none', insert: 'denied', update: 'denied', delete: 'denied' },
}
const nobody: Expectation = {
  anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  other: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
}

const CASES: Record<string, RlsCase> = {
  admin_secrets: {
    target: () => 'name=eq.ai_key:text',
    insert: () => ({ name: 'ai_key:image', value: 'forged' }),
    update: { value: 'forged' },
    inserted: ({ exists }) => exists("select 1 from public.admin_secrets where value = 'forged'"),
    untouched: ({ exists }) => exists("select 1 from public.admin_secrets where name = 'ai_key:text' and value = $1", [SECRET]),
    reset: async ({ q }) => {
      await q("delete from public.admin_secrets where value = 'forged'")
      await q(
        "insert into public.admin_secrets (name, value) values ('ai_key:text', $1) on conflict (name) do update set value = excluded.value",
        [SECRET],
      )
    },
    expect: nobody,
  },
  ai_provider_settings: {
    target: () => 'category=eq.text',
    insert: () => ({ category: 'video', provider: 'x', model: 'x' }),
    update: { model: 'forged' },
    inserted: ({ exists }) => exists("select 1 from public.ai_provider_settings where category = 'video'"),
    untouched: ({ exists }) => exists("select 1 from public.ai_provider_settings where category = 'text' and model <> 'forged'"),
    reset: ({ q }) => q("update public.ai_provider_settings set model = 'On-device (built in)' where category = 'text'"),
    expect: adminOnlyRead,
  },
  site_settings: {
    target: () => 'id=eq.true',
    insert: () => ({ id: true, site_title: 'forged' }),
    update: { site_title: 'forged' },
    inserted: ({ exists }) => exists("select 1 from public.site_settings where site_title = 'forged'"),
    untouched: ({ exists }) => exists("select 1 from public.site_settings where site_title <> 'forged'"),
    reset: ({ q }) => q("update public.site_settings set site_title = 'CUBE Music'"),
    expect: adminOnlyRead,
  },
  admin_audit: {
    target: () => 'field=eq.fixture',
    insert: () => ({ area: 'x', field: 'forged' }),
    update: { new_value: 'forged' },
    inserted: ({ exists }) => exists("select 1 from public.admin_audit where field = 'forged'"),
    untouched: ({ exists }) => exists("select 1 from public.admin_audit where field = 'fixture' and new_value = 'b'"),
    reset: async ({ q }) => {
      await q("delete from public.admin_audit where field in ('fixture', 'forged')")
      await q("insert into public.admin_audit (area, field, old_value, new_value) values ('test', 'fixture', 'a', 'b')")
    },
    expect: adminOnlyRead,
  },
  knowledge_base: {
    target: () => `id=eq.${KB}`,
    insert: () => ({ id: NEW_KB, title: 'New', content: 'New entry' }),
    update: { title: 'Changed' },
    inserted: ({ exists }) => exists('select 1 from public.knowledge_base where id = $1', [NEW_KB]),
    untouched: ({ exists }) => exists("select 1 from public.knowledge_base where id = $1 and title = 'Original'", [KB]),
    reset: async ({ q }) => {
      await q('delete from public.knowledge_base where id = $1', [NEW_KB])
      await q(
        "insert into public.knowledge_base (id, title, content) values ($1, 'Original', 'How rewards work') on conflict " +
          "(id) do update set title = 'Original'",
        [KB],
      )
    },
    expect: {
      anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'allowed', update: 'allowed', delete: 'allowed' },
      other: { select: 'none', insert: 'denied', update: 'none', delete: 'none' },
    },
  },
}

describe('RLS matrix of the admin tables (owner = an administrator, other = an ordinary account)', () => {
  rlsMatrixTests(CASES, () => rlsContext(server, admin, user))
})

const saveAi = (token: string, key: string | null, extra: Record<string, unknown> = {}) =>
  rpc(server, token, 'admin_save_ai_settings', {
    p_category: 'text',
    p_provider: 'Custom Endpoint',
    p_model: 'GPT-4',
    p_base_url: 'http://127.0.0.1:9/v1',
    p_api_key: key,
    ...extra,
  })
const saveSite = (token: string, overrides: Record<string, unknown> = {}) =>
  rpc(server, token, 'admin_save_site_settings', {
    p_site_title: 'Neon Nights',
    p_primary_color: '#22CCAA',
    p_max_free_songs: 3,
    p_database_url: null,
    p_api_base_url: 'https://api.example.com',
    p_api_timeout_ms: 6000,
    p_max_retries: 4,
    ...overrides,
  })

describe('admin functions', () => {
  it('every admin API refuses visitors (401) and ordinary accounts (403) and changes nothing', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['admin_save_ai_settings', { p_category: 'text', p_provider: 'x', p_model: 'x', p_base_url: null, p_api_key: 'k' }],
      [
        'admin_save_site_settings',
        {
          p_site_title: 'x',
          p_primary_color: null,
          p_max_free_songs: 1,
          p_database_url: null,
          p_api_base_url: null,
          p_api_timeout_ms: 5000,
          p_max_retries: 3,
        },
      ],
      ['admin_set_role', { p_email: 'plain@example.com', p_admin: true }],
      ['admin_list_admins', {}],
      ['ai_provider_for_call', { p_category: 'text' }],
    ]
    for (const [name, args] of calls) {
      const anon = await api(server, `/rest/v1/rpc/${name}`, { body: args })
      expect(anon.status, name).toBe(401)
      const plain = await rpc(server, user.accessToken, name, args)
      expect(plain.status, name).toBe(403)
    }
    expect(await sql(server, 'select user_id from public.administrators')).toEqual([{ user_id: admin.id }])
    expect(await sql(server, 'select site_title from public.site_settings')).toEqual([{ site_title: 'CUBE Music' }])
  })

  it('an API key is stored server-side and only its mask ever comes back, to anyone, administrators included', async () => {
    const saved = await saveAi(admin.accessToken, SECRET)
    expect(saved.status, saved.text).toBe(200)
    expect(saved.json).toMatchObject({ category: 'text', provider: 'Custom Endpoint', model: 'GPT-4', api_key_mask: '••••WXYZ' })
    expect(saved.text).not.toContain(SECRET)
    const read = await api(server, '/rest/v1/ai_provider_settings?select=*', { token: admin.accessToken })
    expect(read.text).not.toContain(SECRET)
    expect(read.text).toContain('••••WXYZ')
    expect((await api(server, '/rest/v1/admin_secrets?select=*', { token: admin.accessToken })).status).toBe(403)
    expect((await rpc(server, admin.accessToken, 'ai_provider_for_call', { p_category: 'text' })).status).toBe(403)
    // Keeping the key (null) for the same provider, model and URL leaves it; another model without
    // the key entered again clears it (a key is bound to where it is sent).
    await saveAi(admin.accessToken, null)
    expect(await sql(server, "select value from public.admin_secrets where name = 'ai_key:text'")).toEqual([{ value: SECRET }])
    await saveAi(admin.accessToken, null, { p_model: 'Claude 3' })
    expect(await sql(server, "select value from public.admin_secrets where name = 'ai_key:text'")).toEqual([])
    const audit = await api(server, '/rest/v1/admin_audit?select=area,field,old_value,new_value,actor_email&order=id', {
      token: admin.accessToken,
    })
    expect(audit.text).not.toContain(SECRET)
    expect(audit.json).toEqual(
      expect.arrayContaining([
        { area: 'ai:text', field: 'api_key', old_value: '(none)', new_value: '••••WXYZ', actor_email: 'boss@example.com' },
        { area: 'ai:text', field: 'model', old_value: 'GPT-4', new_value: 'Claude 3', actor_email: 'boss@example.com' },
      ]),
    )
  })

  it(
    'site settings: saved, audited, the database URL masked; bad values refused with nothing changed; title and colour ' + 'public',
    async () => {
      const ok = await saveSite(admin.accessToken, { p_database_url: 'postgresql://cube:hunter2@db.example.com:5432/cube' })
      expect(ok.status, ok.text).toBe(200)
      expect(ok.json).toMatchObject({
        site_title: 'Neon Nights',
        primary_color: '#22CCAA',
        max_free_songs: 3,
        database_url_mask: 'postgresql://cube:••••@db.example.com:5432/cube',
      })
      expect(ok.text).not.toContain('hunter2')
      for (const bad of [
        { p_primary_color: '#12345' },
        { p_primary_color: 'red' },
        { p_max_free_songs: -1 },
        { p_api_timeout_ms: 1500 },
        { p_api_timeout_ms: 0 },
        { p_max_retries: 11 },
        { p_api_base_url: 'javascript:alert(1)' },
        { p_database_url: 'mysql://x' },
        { p_site_title: '   ' },
      ]) {
        const r = await saveSite(admin.accessToken, bad)
        expect(r.status, JSON.stringify(bad)).toBe(400)
      }
      const visitor = await api(server, '/rest/v1/rpc/public_site_settings', { body: {} })
      expect(visitor.json).toEqual({ site_title: 'Neon Nights', primary_color: '#22CCAA', max_free_songs: 3 })
      const audit = await sql<{ field: string; new_value: string }>(
        server,
        "select field, new_value from public.admin_audit where area = 'site' order by id",
      )
      expect(audit).toEqual(
        expect.arrayContaining([
          { field: 'site_title', new_value: 'Neon Nights' },
          { field: 'database_url', new_value: 'postgresql://cube:••••@db.example.com:5432/cube' },
        ]),
      )
      expect(JSON.stringify(audit)).not.toContain('hunter2')
    },
  )

  it('roles: an admin grants and revokes by e-mail; the last administrator keeps the role', async () => {
    expect((await rpc(server, admin.accessToken, 'admin_set_role', { p_email: 'nobody@example.com', p_admin: true })).json).toMatchObject({
      message: 'unknown_account',
    })
    const last = await rpc(server, admin.accessToken, 'admin_set_role', { p_email: 'boss@example.com', p_admin: false })
    expect(last.json).toMatchObject({ message: 'last_admin', details: 'The last administrator cannot lose the role.' })
    expect((await rpc(server, admin.accessToken, 'admin_set_role', { p_email: 'Plain@Example.com', p_admin: true })).status).toBe(200)
    expect((await rpc(server, user.accessToken, 'is_admin')).json).toBe(true)
    expect((await rpc(server, admin.accessToken, 'admin_list_admins')).json.map((r: { email: string }) => r.email)).toEqual([
      'boss@example.com',
      'plain@example.com',
    ])
    expect((await rpc(server, user.accessToken, 'admin_set_role', { p_email: 'plain@example.com', p_admin: false })).status).toBe(200)
    expect((await rpc(server, user.accessToken, 'is_admin')).json).toBe(false)
  })

  it('the knowledge base is searchable by words in title or content', async () => {
    await sql(
      server,
      "insert into public.knowledge_base (title, content) values ('Minting', 'An NFT costs 100 CUBE'), ('Listening', " +
        "'Every qualifying listen earns CUBE')",
    )
    const hits = await rpc(server, admin.accessToken, 'search_knowledge', { p_query: 'nft' })
    expect(hits.json.map((r: { title: string }) => r.title)).toEqual(['Minting'])
    expect((await rpc(server, user.accessToken, 'search_knowledge', { p_query: 'nft' })).json).toEqual([])
  })
})
