import { expect, it } from 'vitest'
import { api, sql, type TestServer, type TestUser } from './local-backend.ts'

// One table × {anon, owner, another user} × {select, insert, update, delete}, through the HTTP
// server exactly as supabase-js calls it. The row under test always belongs to the owner.
//   select: 'rows' (the owner's row comes back), 'none' (200 but RLS hides it), 'denied' (401/403)
//   insert/update/delete: 'allowed' (the change happened), 'none' (200 [] and nothing changed),
//   'denied' (401/403 and nothing changed)
// Every feature's suite declares its own tables' cases and runs them with rlsMatrixTests.

export type Actor = 'anon' | 'owner' | 'other'
export type Op = 'select' | 'insert' | 'update' | 'delete'
export type Outcome = 'rows' | 'none' | 'denied' | 'allowed'
export type Expectation = Record<Actor, Record<Op, Outcome>>

export interface RlsContext {
  server: TestServer
  owner: TestUser
  other: TestUser
  q: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>
  exists: (text: string, params?: unknown[]) => Promise<boolean>
}

export interface RlsCase {
  /** Query string selecting the owner's fixture row. */
  target: (ctx: RlsContext) => string
  /** A row claiming to be the owner's. */
  insert: (ctx: RlsContext) => Record<string, unknown>
  update: Record<string, unknown>
  /** Whether the inserted row exists now (superuser view). */
  inserted: (ctx: RlsContext) => Promise<boolean>
  /** Whether the fixture row still has its original content. */
  untouched: (ctx: RlsContext) => Promise<boolean>
  /**
   * Puts the fixture row back to its original state and removes anything a cell inserted. `op`
   * lets a table whose key is the user (one row per user) clear the owner's row before an insert.
   */
  reset: (ctx: RlsContext, op?: Op) => Promise<unknown>
  expect: Expectation
}

export const readOnlyOwn: Expectation = {
  anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { select: 'rows', insert: 'denied', update: 'denied', delete: 'denied' },
  other: { select: 'none', insert: 'denied', update: 'denied', delete: 'denied' },
}
export const ownedCrud: Expectation = {
  anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
  owner: { select: 'rows', insert: 'allowed', update: 'allowed', delete: 'allowed' },
  other: { select: 'none', insert: 'denied', update: 'none', delete: 'none' },
}

export function rlsContext(server: TestServer, owner: TestUser, other: TestUser): RlsContext {
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
  return { server, owner, other, q, exists: async (text, params = []) => (await q(text, params)).length > 0 }
}

/** Declares one `it` per table × actor × operation; `ctx` is read when the tests run (after beforeAll). */
export function rlsMatrixTests(cases: Record<string, RlsCase>, ctx: () => RlsContext): void {
  for (const [table, c] of Object.entries(cases)) {
    for (const actor of ['anon', 'owner', 'other'] as const) {
      for (const op of ['select', 'insert', 'update', 'delete'] as const) {
        const expected = c.expect[actor][op]
        it(`${table} × ${actor} × ${op} → ${expected}`, async () => {
          const x = ctx()
          await c.reset(x, op)
          const token = actor === 'anon' ? undefined : actor === 'owner' ? x.owner.accessToken : x.other.accessToken
          const representation = { Prefer: 'return=representation' }
          if (op === 'select') {
            const r = await api(x.server, `/rest/v1/${table}?${c.target(x)}`, { token })
            if (expected === 'denied') expect([401, 403]).toContain(r.status)
            else {
              expect(r.status).toBe(200)
              expect((r.json as unknown[]).length).toBe(expected === 'rows' ? 1 : 0)
            }
            return
          }
          const r =
            op === 'insert'
              ? await api(x.server, `/rest/v1/${table}`, { token, body: c.insert(x), headers: representation })
              : op === 'update'
                ? await api(x.server, `/rest/v1/${table}?${c.target(x)}`, {
                    method: 'PATCH',
                    token,
                    body: c.update,
                    headers: representation,
                  })
                : await api(x.server, `/rest/v1/${table}?${c.target(x)}`, { method: 'DELETE', token, headers: representation })
          if (expected === 'denied') {
            expect([401, 403], r.text).toContain(r.status)
            expect(r.status).toBe(actor === 'anon' ? 401 : 403)
            expect(r.json.code).toBe('42501')
          } else if (expected === 'none') {
            expect(r.status, r.text).toBe(200)
            expect(r.json).toEqual([])
          } else {
            expect(r.status, r.text).toBe(op === 'insert' ? 201 : 200)
            expect((r.json as unknown[]).length).toBe(1)
          }
          const changed = op === 'insert' ? await c.inserted(x) : !(await c.untouched(x))
          expect(changed).toBe(expected === 'allowed')
        })
      }
    }
  }
}
