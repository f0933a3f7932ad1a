import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createConformanceFixtures, resetConformanceData } from './support/conformance-fixtures.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, sql, supabaseClient, type TestServer } from './support/local-backend.ts'

// Upserts and JSON values on writes, replayed from PostgREST's specs (github.com/PostgREST/postgrest,
// test/spec/Feature/Query/): UpsertSpec (200 when every row was updated, 201 when any was inserted),
// InsertSpec (payload shapes) and the json_to_recordset conversion PostgREST writes rows with.

describe.each(DATABASES)('Upsert on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await createConformanceFixtures(server)
  }, 90_000)
  afterAll(() => stop?.())
  beforeEach(() => resetConformanceData(server))

  const upsert = (path: string, body: unknown, prefer = 'return=representation, resolution=merge-duplicates') =>
    api(server, `/rest/v1/${path}`, { body, headers: { Prefer: prefer } })

  describe('UpsertSpec: Prefer: resolution=merge-duplicates', () => {
    it('INSERTs and UPDATEs rows on pk conflict: 201', async () => {
      const rows = [
        { name: 'Javascript', rank: 6 },
        { name: 'Java', rank: 2 },
        { name: 'C', rank: 1 },
      ]
      const r = await upsert('conf_tiobe_pls', rows)
      expect([r.status, r.json, r.headers.get('preference-applied')]).toEqual([
        201,
        rows,
        'resolution=merge-duplicates, return=representation',
      ])
    })
    it('UPDATEs rows on pk conflict: 200', async () => {
      const rows = [
        { name: 'Python', rank: 6 },
        { name: 'Java', rank: 2 },
        { name: 'C', rank: 1 },
      ]
      const r = await upsert('conf_tiobe_pls', rows)
      expect([r.status, r.json]).toEqual([200, rows])
      // The status does not depend on the representation: return=minimal also says 200.
      const minimal = await upsert('conf_tiobe_pls', { name: 'C', rank: 5 }, 'resolution=merge-duplicates, return=minimal')
      expect([minimal.status, minimal.text]).toEqual([200, ''])
      expect(await sql(server, "select rank from public.conf_tiobe_pls where name = 'C'")).toEqual([{ rank: 5 }])
    })
    it('INSERTs and UPDATEs rows on a unique key given by on_conflict', async () => {
      const r = await upsert('conf_simple_pk?on_conflict=k', [{ k: 'xyyx', extra: 'changed' }])
      expect([r.status, r.json]).toEqual([200, [{ k: 'xyyx', extra: 'changed' }]])
    })
    it('succeeds when the payload has no elements: 200 []', async () => {
      const r = await upsert('conf_tiobe_pls', [])
      expect([r.status, r.json]).toEqual([200, []])
    })
    it('ignores the Prefer: resolution header (no Preference-Applied) if the table has no PK', async () => {
      const r = await upsert('conf_no_pk', [{ a: '1', b: '0' }])
      expect([r.status, r.json, r.headers.get('preference-applied')]).toEqual([201, [{ a: '1', b: '0' }], 'return=representation'])
    })
  })

  describe('UpsertSpec: Prefer: resolution=ignore-duplicates', () => {
    it('INSERTs and ignores rows on pk conflict: 201 with only the inserted rows', async () => {
      const r = await upsert(
        'conf_tiobe_pls',
        [
          { name: 'PHP', rank: 9 },
          { name: 'Python', rank: 10 },
        ],
        'return=representation, resolution=ignore-duplicates',
      )
      expect([r.status, r.json, r.headers.get('preference-applied')]).toEqual([
        201,
        [{ name: 'PHP', rank: 9 }],
        'resolution=ignore-duplicates, return=representation',
      ])
    })
  })

  describe('through supabase-js (upsert sends resolution=merge-duplicates and on_conflict)', () => {
    it('answers 201 for a new row and 200 when it updated, with or without .select()', async () => {
      const client = supabaseClient(server)
      const created = await client.from('conf_tiobe_pls').upsert({ name: 'Go', rank: 8 }).select().single()
      expect([created.status, created.data]).toEqual([201, { name: 'Go', rank: 8 }])
      const updated = await client.from('conf_tiobe_pls').upsert({ name: 'Go', rank: 7 }).select().single()
      expect([updated.status, updated.data]).toEqual([200, { name: 'Go', rank: 7 }])
      const quiet = await client.from('conf_tiobe_pls').upsert({ name: 'Go', rank: 6 }, { onConflict: 'name' })
      expect([quiet.status, quiet.error]).toEqual([200, null])
    })
  })

  describe('JSON values on writes (json_to_recordset, as PostgREST inserts and updates rows)', () => {
    it('a JSON string in a json/jsonb column stays a JSON string; objects and arrays stay JSON', async () => {
      const r = await api(server, '/rest/v1/conf_typed', {
        body: { id: 1, doc: '{"a":1}', data: 'plain text', tags: ['a', 'b'], nums: [1, 2] },
        headers: { Prefer: 'return=representation' },
      })
      expect([r.status, r.json]).toEqual([201, [{ id: 1, doc: '{"a":1}', data: 'plain text', tags: ['a', 'b'], nums: [1, 2], at: null }]])
      expect(await sql(server, 'select json_typeof(doc) as doc, jsonb_typeof(data) as data from public.conf_typed')).toEqual([
        { doc: 'string', data: 'string' },
      ])
      const patched = await api(server, '/rest/v1/conf_typed?id=eq.1', {
        method: 'PATCH',
        body: { doc: { a: 1 }, data: [1, 'x'], tags: [], nums: [3] },
        headers: { Prefer: 'return=representation' },
      })
      expect(patched.json).toEqual([{ id: 1, doc: { a: 1 }, data: [1, 'x'], tags: [], nums: [3], at: null }])
    })
    it('a PostgreSQL array literal string is still read as the array; a wrong value is the database error', async () => {
      const r = await api(server, '/rest/v1/conf_typed', {
        body: { id: 2, tags: '{x,y}', at: '2024-01-02T03:04:05Z' },
        headers: { Prefer: 'return=representation' },
      })
      expect(r.json[0].tags).toEqual(['x', 'y'])
      const bad = await api(server, '/rest/v1/conf_typed', { body: { id: 3, nums: ['one'] } })
      expect([bad.status, bad.json.code]).toEqual([400, '22P02'])
    })
    it('InsertSpec "rejects json array that has objects with different keys" unless columns is given (as supabase-js does)', async () => {
      const mixed = await api(server, '/rest/v1/conf_typed', { body: [{ id: 4 }, { id: 5, nums: [1] }] })
      expect([mixed.status, mixed.json]).toEqual([
        400,
        { message: 'All object keys must match', code: 'PGRST102', hint: null, details: null },
      ])
      const columns = await api(server, '/rest/v1/conf_typed?columns=id,nums', { body: [{ id: 4 }, { id: 5, nums: [1] }] })
      expect(columns.status).toBe(201)
      const client = supabaseClient(server)
      expect((await client.from('conf_typed').insert([{ id: 6 }, { id: 7, tags: ['t'] }])).status).toBe(201)
    })
  })
})
