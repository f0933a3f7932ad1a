import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grantAdmin } from '../../scripts/admin-grant/grant.ts'
import { api, sql, startTestServer, type TestServer } from './support/local-backend.ts'

// `npm run admin:grant -- e-mail`: the operator's way to make an administrator, never to an
// address that has not been confirmed.

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ emailConfirm: true })
}, 60_000)
afterAll(() => server?.close(), 30_000)

describe('admin:grant', () => {
  it('grants a confirmed account once, and refuses unknown and unconfirmed addresses', async () => {
    expect(await grantAdmin(server.db, 'nobody@example.com')).toBe('no-account')
    expect((await api(server, '/auth/v1/signup', { body: { email: 'pending@example.com', password: 'pending-pass-1' } })).status).toBe(200)
    expect(await grantAdmin(server.db, 'pending@example.com')).toBe('unconfirmed')
    await sql(server, "update auth.users set email_confirmed_at = now() where email = 'pending@example.com'")
    expect(await grantAdmin(server.db, ' Pending@Example.com ')).toBe('granted')
    expect(await grantAdmin(server.db, 'pending@example.com')).toBe('already')
    const admins = await sql<{ email: string }>(server, 'select u.email from public.administrators a join auth.users u on u.id = a.user_id')
    expect(admins.map((a) => a.email)).toEqual(['pending@example.com'])
  })
})
