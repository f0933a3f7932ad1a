import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createConformanceFixtures, resetConformanceData } from './support/conformance-fixtures.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, sql, supabaseClient, type TestServer } from './support/local-backend.ts'

// The Prefer header, replayed from PostgREST's specs (github.com/PostgREST/postgrest, test/spec/Feature/...)
// against the local backend: each `it` names the upstream spec and case it comes from.

describe.each(DATABASES)('Prefer on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await createConformanceFixtures(server)
  }, 90_000)
  afterAll(() => stop?.())
  beforeEach(() => resetConformanceData(server))

  const items = async () =>
    (await sql<{ id: string }>(server, 'select id::text from public.conf_items order by id')).map((r) => Number(r.id))

  describe('Query/Preferences/HandlingSpec', () => {
    it('throws error when handling=strict and invalid prefs are given (also across several Prefer headers, on POST and RPC)', async () => {
      const strict = await api(server, '/rest/v1/conf_items', { headers: { Prefer: 'handling=strict, anything' } })
      expect(strict.status).toBe(400)
      expect(strict.json).toEqual({
        details: 'Invalid preferences: anything',
        message: 'Invalid preferences given with handling=strict',
        code: 'PGRST122',
        hint: null,
      })
      // fetch joins repeated headers with ", ", which is how PostgREST reads several Prefer headers too.
      const split = await api(server, '/rest/v1/conf_items', { headers: { Prefer: 'handling=strict, something, else' } })
      expect(split.json.details).toBe('Invalid preferences: something, else')
      const post = await api(server, '/rest/v1/conf_organizations?select=*', {
        body: { id: 7, name: 'John', referee: null, auditor: null, manager_id: 6 },
        headers: { Prefer: 'return=representation, handling=strict, anything' },
      })
      expect([post.status, post.json.code]).toEqual([400, 'PGRST122'])
      expect(await sql(server, 'select 1 from public.conf_organizations where id = 7')).toEqual([])
      const rpc = await api(server, '/rest/v1/rpc/conf_add_them', {
        body: { a: 1, b: 2 },
        headers: { Prefer: 'handling=strict, anything' },
      })
      expect([rpc.status, rpc.json.code]).toEqual([400, 'PGRST122'])
    })

    it('does not throw error when handling=lenient and invalid prefs (GET, POST, RPC)', async () => {
      expect((await api(server, '/rest/v1/conf_items', { headers: { Prefer: 'handling=lenient, anything' } })).status).toBe(200)
      const post = await api(server, '/rest/v1/conf_organizations?select=*', {
        body: { id: 7, name: 'John', referee: null, auditor: null, manager_id: 6 },
        headers: { Prefer: 'return=representation, handling=lenient, anything' },
      })
      expect([post.status, post.json]).toEqual([201, [{ id: 7, name: 'John', referee: null, auditor: null, manager_id: 6 }]])
      const rpc = await api(server, '/rest/v1/rpc/conf_add_them', {
        body: { a: 1, b: 2 },
        headers: { Prefer: 'handling=lenient, anything' },
      })
      expect([rpc.status, rpc.json]).toEqual([200, 3])
    })
  })

  describe('RollbackSpec, "tx-rollback-all = false, tx-allow-override = false" (hosted Supabase: db-tx-end = commit)', () => {
    it('Prefer tx=rollback: responds to reads and persists mutations, without Preference-Applied for tx', async () => {
      const read = await api(server, '/rest/v1/conf_items?id=eq.1', { headers: { Prefer: 'return=representation, tx=rollback' } })
      expect(read.json).toEqual([{ id: 1 }])
      expect(read.headers.get('preference-applied')).toBeNull()
      const post = await api(server, '/rest/v1/conf_items', { body: { id: 0 }, headers: { Prefer: 'return=representation, tx=rollback' } })
      expect([post.status, post.json]).toEqual([201, [{ id: 0 }]])
      expect(post.headers.get('preference-applied')).toBe('return=representation')
      const patch = await api(server, '/rest/v1/conf_items?id=eq.0', {
        method: 'PATCH',
        body: { id: -1 },
        headers: { Prefer: 'return=representation, tx=rollback' },
      })
      expect(patch.json).toEqual([{ id: -1 }])
      expect((await items())[0]).toBe(-1)
      const del = await api(server, '/rest/v1/conf_items?id=lte.0', {
        method: 'DELETE',
        headers: { Prefer: 'return=representation, tx=rollback' },
      })
      expect(del.json).toEqual([{ id: -1 }])
      expect((await items())[0]).toBe(1)
      // handling=strict does not refuse it: tx=commit|rollback are known preferences, only not applied.
      const strict = await api(server, '/rest/v1/conf_items?id=eq.1', { headers: { Prefer: 'handling=strict, tx=rollback' } })
      expect([strict.status, strict.headers.get('preference-applied')]).toEqual([200, 'handling=strict'])
    })

    it('supabase-js .rollback() therefore writes, as on hosted Supabase', async () => {
      const client = supabaseClient(server)
      const { error, status } = await client.from('conf_items').insert({ id: 100 }).rollback()
      expect([error, status]).toEqual([null, 201])
      expect(await items()).toContain(100)
    })

    it('raises immediate constraints (409, without Preference-Applied)', async () => {
      const dup = await api(server, '/rest/v1/conf_items', { body: { id: 1 }, headers: { Prefer: 'tx=rollback' } })
      expect(dup.status).toBe(409)
      expect(dup.json.code).toBe('23505')
      expect(dup.headers.get('preference-applied')).toBeNull()
    })
  })

  describe('Query/Preferences/MaxAffectedSpec', () => {
    it('handling=strict: fails if more items are deleted or updated than max-affected, and nothing changes', async () => {
      const del = await api(server, '/rest/v1/conf_items?id=lt.15', {
        method: 'DELETE',
        headers: { Prefer: 'handling=strict, max-affected=10' },
      })
      expect(del.status).toBe(400)
      expect(del.json).toEqual({
        code: 'PGRST124',
        details: 'The query affects 14 rows',
        hint: null,
        message: 'Query result exceeds max-affected preference constraint',
      })
      expect(await items()).toHaveLength(15)
      const patch = await api(server, '/rest/v1/conf_tiobe_pls?name=eq.Java', {
        method: 'PATCH',
        body: { rank: 19 },
        headers: { Prefer: 'handling=strict, max-affected=0' },
      })
      expect([patch.status, patch.json.details]).toEqual([400, 'The query affects 1 rows'])
      expect(await sql(server, "select rank from public.conf_tiobe_pls where name = 'Java'")).toEqual([{ rank: 1 }])
    })

    it('handling=strict: succeeds within the limit and reports handling=strict, max-affected=n', async () => {
      const del = await api(server, '/rest/v1/conf_items?id=lt.10', {
        method: 'DELETE',
        headers: { Prefer: 'handling=strict, max-affected=10' },
      })
      expect([del.status, del.headers.get('preference-applied')]).toEqual([204, 'handling=strict, max-affected=10'])
      expect(await items()).toHaveLength(6)
    })

    it('handling=lenient: max-affected is not enforced and not reported', async () => {
      const del = await api(server, '/rest/v1/conf_items?id=lt.15', {
        method: 'DELETE',
        headers: { Prefer: 'handling=lenient, max-affected=10' },
      })
      expect([del.status, del.headers.get('preference-applied')]).toEqual([204, 'handling=lenient'])
      expect(await items()).toEqual([15])
    })

    it('rpc: fails when a SETOF function deletes more rows than preferred, succeeds within; scalar functions get PGRST128', async () => {
      const over = await api(server, '/rest/v1/rpc/conf_delete_items_returns_setof', {
        method: 'POST',
        headers: { Prefer: 'handling=strict, max-affected=10' },
      })
      expect([over.status, over.json.code, over.json.details]).toEqual([400, 'PGRST124', 'The query affects 15 rows'])
      expect(await items()).toHaveLength(15)
      const within = await api(server, '/rest/v1/rpc/conf_delete_items_returns_setof', {
        method: 'POST',
        headers: { Prefer: 'handling=strict, max-affected=20' },
      })
      expect(within.status).toBe(200)
      expect(within.json).toHaveLength(15)
      const scalar = await api(server, '/rest/v1/rpc/conf_add_them', {
        body: { a: 1, b: 2 },
        headers: { Prefer: 'handling=strict, max-affected=1' },
      })
      expect([scalar.status, scalar.json]).toEqual([
        400,
        {
          code: 'PGRST128',
          details: null,
          hint: null,
          message: 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
        },
      ])
    })
  })

  describe('Query/Preferences/TimezoneSpec', () => {
    it('timezone=America/Los_Angeles changes the time zone of the answer and is reported', async () => {
      const r = await api(server, '/rest/v1/conf_timestamps?order=t', {
        headers: { Prefer: 'handling=strict, timezone=America/Los_Angeles' },
      })
      expect(r.json).toEqual([
        { t: '2023-10-18T05:37:59.611-07:00' },
        { t: '2023-10-18T07:37:59.611-07:00' },
        { t: '2023-10-18T09:37:59.611-07:00' },
      ])
      expect(r.headers.get('preference-applied')).toBe('handling=strict, timezone=America/Los_Angeles')
      const offset = await api(server, '/rest/v1/conf_timestamps?order=t&limit=1', { headers: { Prefer: 'timezone=+05:30' } })
      expect(offset.json).toEqual([{ t: '2023-10-18T07:07:59.611-05:30' }])
    })

    it("an invalid time zone is PostgreSQL's 22023 (400), whatever the handling", async () => {
      for (const prefer of ['timezone=Invalid/Timezone', 'handling=lenient, timezone=Invalid/Timezone']) {
        const r = await api(server, '/rest/v1/conf_timestamps', { headers: { Prefer: prefer } })
        expect(r.status).toBe(400)
        expect(r.json).toEqual({
          code: '22023',
          details: null,
          hint: null,
          message: 'invalid value for parameter "TimeZone": "Invalid/Timezone"',
        })
      }
    })
  })

  describe('count on writes (InsertSpec, UpdateSpec, DeleteSpec; Response.hs contentRangeH)', () => {
    it('insert: Content-Range */n with count=exact, */* without', async () => {
      const counted = await api(server, '/rest/v1/conf_items', { body: [{ id: 20 }, { id: 21 }], headers: { Prefer: 'count=exact' } })
      expect([counted.status, counted.headers.get('content-range'), counted.headers.get('preference-applied')]).toEqual([
        201,
        '*/2',
        'count=exact',
      ])
      const plain = await api(server, '/rest/v1/conf_items', { body: { id: 22 } })
      expect(plain.headers.get('content-range')).toBe('*/*')
    })

    it('update: Content-Range 0-(n-1)/n with count=exact, 0-(n-1)/* without; */0 when nothing matched', async () => {
      const counted = await api(server, '/rest/v1/conf_tiobe_pls?rank=lte.2', {
        method: 'PATCH',
        body: { rank: 9 },
        headers: { Prefer: 'count=exact' },
      })
      expect([counted.status, counted.headers.get('content-range')]).toEqual([204, '0-1/2'])
      const plain = await api(server, '/rest/v1/conf_tiobe_pls?rank=eq.3', { method: 'PATCH', body: { rank: 4 } })
      expect(plain.headers.get('content-range')).toBe('0-0/*')
      const none = await api(server, '/rest/v1/conf_tiobe_pls?rank=eq.100', {
        method: 'PATCH',
        body: { rank: 4 },
        headers: { Prefer: 'count=exact' },
      })
      expect(none.headers.get('content-range')).toBe('*/0')
    })

    it('delete: Content-Range */n with count=exact', async () => {
      const r = await api(server, '/rest/v1/conf_items?id=gt.12', { method: 'DELETE', headers: { Prefer: 'count=exact' } })
      expect([r.status, r.headers.get('content-range')]).toEqual([204, '*/3'])
    })

    it('supabase-js reads the count of an insert, update and delete', async () => {
      const client = supabaseClient(server)
      expect((await client.from('conf_items').insert([{ id: 30 }, { id: 31 }], { count: 'exact' })).count).toBe(2)
      expect((await client.from('conf_tiobe_pls').update({ rank: 0 }, { count: 'exact' }).gt('rank', 1)).count).toBe(2)
      expect((await client.from('conf_items').delete({ count: 'exact' }).gte('id', 30)).count).toBe(2)
    })
  })

  describe('InsertSpec "return=headers-only"', () => {
    it('answers 201 with Location for the inserted row and no body', async () => {
      const r = await api(server, '/rest/v1/conf_simple_pk', {
        body: { k: 'new key', extra: 'x' },
        headers: { Prefer: 'return=headers-only' },
      })
      expect([r.status, r.text, r.headers.get('location')]).toEqual([201, '', '/conf_simple_pk?k=eq.new+key'])
      expect(r.headers.get('preference-applied')).toBe('return=headers-only')
    })
  })
})
