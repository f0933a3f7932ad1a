import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { inject } from 'vitest'
import WebSocket from 'ws'
import { custodialKeyFileFor, jwtSecretFileFor } from '../../../supabase/local/core/local-keys.ts'
import { storageDirFor, type LocalServerOptions } from '../../../supabase/local/core/options.ts'
import { startLocalServer, type LocalServer } from '../../../supabase/local/core/server.ts'

export interface TestServer extends LocalServer {
  dataDir: string | undefined
}

/** The run's migrated PGlite dump (tests/backend/support/global-setup.ts), read once per test file. */
let snapshot: Promise<Blob> | undefined
export function migratedSnapshot(): Promise<Blob> | undefined {
  const file = inject('pgliteSnapshotFile')
  if (!file) return undefined
  return (snapshot ??= readFile(file).then((bytes) => new Blob([bytes])))
}

/**
 * The local backend in-process on a random port; cheap bcrypt so sign-ups stay fast. An in-memory
 * PGlite server starts from the run's migrated snapshot (migrate() then finds every migration
 * applied with its checksum); a persistent data folder or PostgreSQL is migrated from nothing.
 */
/**
 * A server for scripted accounts (the test suites, the Node benches): cheap password hashing, accounts
 * confirmed at sign-up (the sign-up then carries the session), and sign-ups and wallet links from one
 * loopback address far beyond the per-address hourly limits.
 */
export const SCRIPTED_SERVER_OPTIONS = {
  bcryptRounds: 4,
  emailConfirm: false,
  signupRateLimit: { max: 100_000, seconds: 3600 },
  walletLinkRateLimit: 100_000,
} satisfies LocalServerOptions

export async function startTestServer(options: LocalServerOptions & { persistent?: boolean } = {}): Promise<TestServer> {
  const dataDir = options.persistent ? await mkdtemp(join(tmpdir(), 'cube-backend-')) : undefined
  const inMemoryPglite = !options.persistent && !options.dataDir && !options.databaseUrl
  const pgliteSnapshot = inMemoryPglite ? await migratedSnapshot() : undefined
  // Suites sign up and link wallets from 127.0.0.1 far beyond the per-address hourly limits;
  // tests/backend/auth-rate-limits.test.ts sets them low on purpose. Accounts are confirmed at
  // sign-up unless a suite turns confirmations on (tests/backend/auth-email.test.ts).
  const server = await startLocalServer({
    ...SCRIPTED_SERVER_OPTIONS,
    dataDir,
    pgliteSnapshot,
    ...options,
    port: 0,
  })
  return {
    ...server,
    dataDir,
    async close() {
      await server.close()
      if (dataDir) {
        await rm(dataDir, { recursive: true, force: true })
        await rm(storageDirFor(dataDir), { recursive: true, force: true })
        await rm(jwtSecretFileFor(dataDir), { force: true })
        await rm(custodialKeyFileFor(dataDir), { force: true })
      }
    },
  }
}

export function supabaseClient(server: LocalServer, fetchImpl?: typeof fetch): SupabaseClient {
  return createClient(server.url, server.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    global: fetchImpl ? { fetch: fetchImpl } : undefined,
  })
}

export interface TestUser {
  id: string
  email: string
  password: string
  accessToken: string
  refreshToken: string
}

/** A supabase-js client signed in as `user` (for Realtime and the app's own backend calls). */
export async function signedInClient(server: LocalServer, user: { email: string; password: string }): Promise<SupabaseClient> {
  const db = supabaseClient(server)
  const { error } = await db.auth.signInWithPassword({ email: user.email, password: user.password })
  if (error) throw new Error(`could not sign in ${user.email}: ${error.message}`)
  return db
}

export async function signUp(
  server: LocalServer,
  email: string,
  password = 'correct-horse',
  username?: string,
  from?: string,
): Promise<TestUser> {
  const response = await (from ? fetchFrom(from) : fetch)(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: server.keys.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, data: username ? { username } : {} }),
  })
  const body = (await response.json()) as { access_token: string; refresh_token: string; user: { id: string } }
  if (response.status !== 200) throw new Error(`sign-up of ${email} failed: ${response.status} ${JSON.stringify(body)}`)
  return { id: body.user.id, email, password, accessToken: body.access_token, refreshToken: body.refresh_token }
}

/**
 * A fetch whose connections leave from `localAddress` (127.0.0.2, 127.0.0.3, …: all of 127/8 is
 * local on Linux), so the server sees another client address. Enough of fetch for api() and
 * supabase-js's REST and functions calls: method, headers, a string or byte body.
 */
export function fetchFrom(localAddress: string): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const headers = new Headers(input instanceof Request ? input.headers : undefined)
    new Headers(init.headers).forEach((v, k) => headers.set(k, v))
    const method = init.method ?? (input instanceof Request ? input.method : 'GET')
    const raw = init.body ?? (input instanceof Request && method !== 'GET' && method !== 'HEAD' ? await input.arrayBuffer() : undefined)
    const body =
      raw === undefined || raw === null ? undefined : typeof raw === 'string' ? Buffer.from(raw) : Buffer.from(raw as ArrayBuffer)
    if (body) headers.set('content-length', String(body.length))
    return new Promise<Response>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress, headers: Object.fromEntries(headers) },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const out = new Headers()
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v)
            const status = res.statusCode ?? 500
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }))
          })
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }) as typeof fetch
}

/** A raw request as supabase-js would send it: apikey always, bearer when signed in; `from`: the client address to connect from. */
export async function api(
  server: LocalServer,
  path: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; from?: string } = {},
) {
  const response = await (init.from ? fetchFrom(init.from) : fetch)(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      apikey: server.keys.anonKey,
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON the server answers; suites read fields (r.json.code) directly
  return { status: response.status, headers: response.headers, text, json: json as any }
}

export const rpc = (server: LocalServer, token: string, name: string, args: Record<string, unknown> = {}, from?: string) =>
  api(server, `/rest/v1/rpc/${name}`, { token, body: args, from })

/** Superuser SQL for test setup and for checking what really is in the tables. */
export async function sql<T = Record<string, unknown>>(server: LocalServer, text: string, params: unknown[] = []): Promise<T[]> {
  return (await server.db.query<T>(text, params)).rows
}

/** Deterministic bytes that differ per seed (a stand-in for an audio file's data). */
export function seededBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = seed * 2654435761
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}
