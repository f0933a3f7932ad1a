import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openingSql } from '../../supabase/local/core/caller.ts'
import { runAsApiCaller } from '../../supabase/local/core/pre-request.ts'
import { startLocalServer, type LocalServer } from '../../supabase/local/core/server.ts'
import { startTestServer } from './support/local-backend.ts'
import { startPostgresCluster } from './support/postgres-cluster.ts'

// A request's transaction opens with BEGIN, its settings and the pre-request check in one round
// trip (supabase/local/core/caller.ts openingSql). That message takes no parameters, so the
// client's header values go in as escaped literals: whatever a client sends must arrive in SQL
// exactly as sent and never run as SQL.

// PGlite takes the opening as its own call inside the transaction; pg sends it with BEGIN as one
// simple-protocol message. Both must publish the same settings.
const BACKENDS: [string, () => Promise<{ server: LocalServer; stop(): Promise<void> } | string>][] = [
  [
    'PGlite',
    async () => {
      const server = await startTestServer()
      return { server, stop: () => server.close() }
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const cluster = await startPostgresCluster()
      if (typeof cluster === 'string') return cluster
      const server = await startLocalServer({ emailConfirm: false, databaseUrl: cluster.url, port: 0, bcryptRounds: 4 })
      return {
        server,
        stop: async () => {
          await server.close()
          cluster.stop()
        },
      }
    },
  ],
]

const HOSTILE = [
  "it's",
  "'); select pg_sleep(10); --",
  'back\\slash \\x27 \\\\',
  '$$ dollar $tag$ quotes $$',
  'semi; colon; "double"',
  'unicode ✓ — 日本語',
]

describe.each(BACKENDS)("a request transaction's opening on %s", (_name, start) => {
  let server: LocalServer | undefined
  let stop: (() => Promise<void>) | undefined
  let skipReason = ''
  beforeAll(async () => {
    const started = await start()
    if (typeof started === 'string') skipReason = started
    else ({ server, stop } = started)
  }, 60_000)
  afterAll(async () => {
    await stop?.()
  })

  it('publishes hostile header values and claims byte for byte, as the role it names, and runs none of them', async (context) => {
    if (!server) return context.skip(skipReason)
    for (const value of HOSTILE) {
      const headers = { 'user-agent': value, 'x-forwarded-for': '127.0.0.1' }
      const claims = { role: 'anon', note: value }
      const seen = await runAsApiCaller(server.db, { role: 'anon', claims, headers }, undefined, async (tx) => {
        const { rows } = await tx.query<{ headers: string; claims: string; role: string }>(
          "select current_setting('request.headers') as headers, current_setting('request.jwt.claims') as claims, current_user as role",
        )
        return rows[0]!
      })
      expect(JSON.parse(seen.headers), value).toEqual(headers)
      expect(JSON.parse(seen.claims), value).toEqual(claims)
      expect(seen.role).toBe('anon')
    }
  })

  it('is one statement list: the settings, then the pre-request call, with nothing else in it', () => {
    const sql = openingSql({
      role: 'authenticated',
      claims: { sub: 'x' },
      headers: { a: "'" },
      preRequest: 'select "public"."check_request"()',
    })
    expect(sql).toBe(
      "select set_config('role', 'authenticated', true), " +
        `set_config('request.jwt.claims', '{"sub":"x","role":"authenticated"}', true), ` +
        "set_config('statement_timeout', '10s', true), " +
        `set_config('request.headers', '{"a":"''"}', true); select "public"."check_request"();`,
    )
  })

  it('refuses the request when the pre-request check raises, and the settings end with the transaction', async (context) => {
    if (!server) return context.skip(skipReason)
    await expect(runAsApiCaller(server.db, { role: 'anon', claims: { role: 'anon' } }, 'select (1/0)', async () => 'ran')).rejects.toThrow(
      /division by zero/,
    )
    const after = await server.db.query<{ claims: string | null }>("select current_setting('request.jwt.claims', true) as claims")
    expect(after.rows[0]!.claims || null).toBeNull()
  })
})
