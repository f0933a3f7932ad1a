import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { signJwt } from '../../supabase/local/core/jwt.ts'
import { DEFAULT_LOCAL_JWT_SECRET, LOCAL_ANON_KEY, jwtSecretFileFor } from '../../supabase/local/core/local-keys.ts'
import { optionsFromEnv } from '../../supabase/local/core/options.ts'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { staticFiles } from '../../supabase/local/core/static-files.ts'
import { api, signUp } from './support/local-backend.ts'

// docs/security.md item 11: `npm start` signed with the Supabase CLI's public demo secret, so anyone who
// could reach the port could sign an aal2 token for any user, and a token without `exp` never
// expired. Now each data folder gets its own random secret on first start (beside the data), the
// app's page carries the anon key signed with it, tokens must carry `exp`, and LOCAL_JWT_SECRET
// still overrides. The attacks are raw HTTP with tokens the attacker signs themselves.

const now = () => Math.floor(Date.now() / 1000)
const forgedSession = (sub: string, secret: string, extra: Record<string, unknown> = { exp: now() + 3600 }) =>
  signJwt({ sub, role: 'authenticated', aud: 'authenticated', aal: 'aal2', ...extra }, secret)

describe('the signing secret of a data folder', () => {
  let root: string
  let dist: string
  const started: LocalServer[] = []
  let snapshot: Uint8Array
  /** A server on `dataDir`; a new folder starts from the run's migrated dump (tests/backend/support/global-setup.ts). */
  const start = async (dataDir: string, extra: Parameters<typeof startLocalServer>[0] = {}) => {
    const fresh = await stat(dataDir).then(
      () => false,
      () => true,
    )
    const pgliteSnapshot = fresh ? new Blob([snapshot as Uint8Array<ArrayBuffer>]) : undefined
    const server = await startLocalServer({
      emailConfirm: false,
      dataDir,
      pgliteSnapshot,
      port: 0,
      bcryptRounds: 4,
      fallback: staticFiles(dist, {}),
      ...extra,
    })
    started.push(server)
    return server
  }
  beforeAll(async () => {
    snapshot = await readFile(inject('pgliteSnapshotFile'))
    root = await mkdtemp(join(tmpdir(), 'cube-jwt-secret-'))
    dist = join(root, 'dist')
    await mkdir(dist)
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><html><head><title>CUBE</title></head><body><div id="root"></div></body></html>',
    )
  })
  afterAll(async () => {
    for (const s of started) await s.close().catch(() => undefined)
    await rm(root, { recursive: true, force: true })
  })

  it('a fresh folder gets its own random secret (file beside the data, mode 0600): tokens signed with the public demo ' +
    'secret are refused', async () => {
    const dataDir = join(root, 'fresh')
    const server = await start(dataDir)
    expect(server.keys.jwtSecret).not.toBe(DEFAULT_LOCAL_JWT_SECRET)
    const file = jwtSecretFileFor(dataDir)
    expect((await readFile(file, 'utf8')).trim()).toBe(server.keys.jwtSecret)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(server.keys.jwtSecret.length).toBeGreaterThanOrEqual(32)

    const victim = await signUp(server, 'jwt-victim@example.com')
    // The attacker signs an aal2 session for the victim with the secret everybody knows.
    const forged = await forgedSession(victim.id, DEFAULT_LOCAL_JWT_SECRET)
    const spend = await api(server, '/rest/v1/rpc/init_user_tokens', { token: forged, body: {} })
    expect(spend.status).toBe(401)
    expect(spend.json.message).toBe('JWT signature does not match')
    expect((await api(server, '/auth/v1/user', { token: forged })).status).toBe(403)
    // The demo anon key is no key here either; the folder's own one is.
    expect((await api(server, '/rest/v1/songs?select=id&limit=1', { headers: { apikey: LOCAL_ANON_KEY } })).status).toBe(401)
    expect((await api(server, '/rest/v1/songs?select=id&limit=1')).status).toBe(200)
  }, 60_000)

  it('persists across restarts of the same folder (sessions stay valid) and differs between folders', async () => {
    const dataDir = join(root, 'kept')
    const first = await start(dataDir)
    const user = await signUp(first, 'jwt-kept@example.com')
    const secret = first.keys.jwtSecret
    await first.close()
    const again = await start(dataDir)
    expect(again.keys.jwtSecret).toBe(secret)
    expect((await api(again, '/auth/v1/user', { token: user.accessToken })).status).toBe(200)
    const other = await start(join(root, 'other'))
    expect(other.keys.jwtSecret).not.toBe(secret)
    expect((await api(other, '/rest/v1/songs?select=id&limit=1', { headers: { apikey: again.keys.anonKey } })).status).toBe(401)
  }, 90_000)

  it("the served app page carries this folder's anon key, and that key works against the API", async () => {
    const server = await start(join(root, 'page'))
    for (const path of ['/', '/index.html', '/app/library']) {
      const page = await fetch(`${server.url}${path}`)
      expect(page.status).toBe(200)
      const html = await page.text()
      const key = /<meta name="cube-anon-key" content="([^"]+)">/.exec(html)?.[1]
      expect(key, path).toBe(server.keys.anonKey)
      expect((await api(server, '/rest/v1/songs?select=id&limit=1', { headers: { apikey: key! } })).status).toBe(200)
    }
  }, 60_000)

  it('LOCAL_JWT_SECRET still overrides: no file is made and the keys are signed with it', async () => {
    const dataDir = join(root, 'override')
    const secret = 'my-own-secret-of-at-least-thirty-two-characters'
    const server = await start(dataDir, { jwtSecret: optionsFromEnv({ LOCAL_JWT_SECRET: secret }).jwtSecret })
    expect(server.keys.jwtSecret).toBe(secret)
    await expect(stat(jwtSecretFileFor(dataDir))).rejects.toThrow()
  }, 60_000)
})

describe('tokens without an expiry', () => {
  let server: LocalServer
  beforeAll(async () => {
    server = await startLocalServer({ emailConfirm: false, port: 0, bcryptRounds: 4 })
  }, 60_000)
  afterAll(() => server?.close())

  it('are refused by REST, RPC, Auth, Storage and edge functions even when signed with the right secret', async () => {
    const user = await signUp(server, 'jwt-noexp@example.com')
    const forever = await forgedSession(user.id, server.keys.jwtSecret, {})
    const rest = await api(server, '/rest/v1/profiles?select=username', { token: forever })
    expect(rest.status).toBe(401)
    expect(rest.json.message).toBe('JWT has no expiry (exp claim): tokens must expire')
    expect((await api(server, '/rest/v1/rpc/init_user_tokens', { token: forever, body: {} })).status).toBe(401)
    expect((await api(server, '/auth/v1/user', { token: forever })).status).toBe(403)
    const storage = await api(server, '/storage/v1/object/list/studio-audio', { token: forever, body: { prefix: user.id } })
    expect(storage.json).toMatchObject({ statusCode: '403', message: 'Invalid JWT: JWT has no expiry (exp claim): tokens must expire' })
    expect((await api(server, '/functions/v1/init-user-tokens', { token: forever, method: 'POST' })).status).toBe(401)
    // An anon key without exp is no better.
    const anonForever = await signJwt({ role: 'anon' }, server.keys.jwtSecret)
    expect((await api(server, '/rest/v1/songs?select=id', { headers: { apikey: anonForever } })).status).toBe(401)
    // Expired ones stay refused; a proper one works.
    expect(
      (
        await api(server, '/rest/v1/profiles?select=username', {
          token: await forgedSession(user.id, server.keys.jwtSecret, { exp: now() - 1 }),
        })
      ).status,
    ).toBe(401)
    expect((await api(server, '/rest/v1/profiles?select=username', { token: user.accessToken })).status).toBe(200)
  }, 60_000)
})
