import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConformanceFixtures } from './support/conformance-fixtures.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, supabaseClient, type TestServer } from './support/local-backend.ts'

// Content negotiation, replayed from PostgREST's specs (github.com/PostgREST/postgrest, test/spec/Feature/Query/):
// QuerySpec "accept headers", NullsStripSpec, SingularSpec, CustomMediaSpec and PlanSpec.disabledSpec
// (hosted Supabase leaves db-plan-enabled off).

const unavailable = (types: string) => ({
  code: 'PGRST107',
  details: null,
  hint: null,
  message: `None of these media types are available: ${types}`,
})

describe.each(DATABASES)('Accept on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await createConformanceFixtures(server)
  }, 90_000)
  afterAll(() => stop?.())

  const get = (path: string, accept: string, method = 'GET') => api(server, `/rest/v1/${path}`, { method, headers: { Accept: accept } })

  describe('QuerySpec: accept headers', () => {
    it('should respond an unknown accept type with 406', async () => {
      const r = await get('conf_simple_pk', 'text/unknowntype')
      expect([r.status, r.json]).toEqual([406, unavailable('text/unknowntype')])
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
    })
    it('should respond correctly to */* and to multiple types', async () => {
      expect((await get('conf_simple_pk', '*/*')).status).toBe(200)
      expect((await get('conf_simple_pk', 'text/unknowntype, text/csv')).status).toBe(200)
    })
    it('a specific available type overrides */*, and the client preference wins over the server one', async () => {
      expect((await get('conf_simple_pk', 'text/csv, */*')).headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect((await get('conf_simple_pk', 'text/csv, application/json')).headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect((await get('conf_simple_pk', 'text/csv;q=0.5, application/json')).headers.get('content-type')).toBe(
        'application/json; charset=utf-8',
      )
    })
    it("should respond with CSV to 'text/csv' request", async () => {
      const r = await get('conf_simple_pk?order=k.desc', 'text/csv; version=1')
      expect([r.status, r.text, r.headers.get('content-type'), r.headers.get('content-length')]).toEqual([
        200,
        'k,extra\nxyyx,u\nxYYx,v',
        'text/csv; charset=utf-8',
        '21',
      ])
    })
  })

  describe('NullsStripSpec', () => {
    it('strips nulls when Accept: application/vnd.pgrst.array+json;nulls=stripped (and vnd.pgrst.array), on GET and POST', async () => {
      const r = await get('conf_organizations?select=*&order=id&limit=3', 'application/vnd.pgrst.array+json;nulls=stripped')
      expect(r.json).toEqual([
        { id: 1, name: 'Referee Org', manager_id: 1 },
        { id: 2, name: 'Auditor Org', manager_id: 2 },
        { id: 3, name: 'Acme', referee: 1, auditor: 2, manager_id: 3 },
      ])
      expect(r.headers.get('content-type')).toBe('application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8')
      const short = await get('conf_organizations?select=id,referee&order=id&limit=2', 'application/vnd.pgrst.array;nulls=stripped')
      expect(short.json).toEqual([{ id: 1 }, { id: 2 }])
      const post = await api(server, '/rest/v1/conf_organizations?select=*', {
        body: { id: 10, name: 'New', referee: null, auditor: null, manager_id: 6 },
        headers: { Prefer: 'return=representation', Accept: 'application/vnd.pgrst.array+json;nulls=stripped' },
      })
      expect([post.status, post.json]).toEqual([201, [{ id: 10, name: 'New', manager_id: 6 }]])
    })
    it('strips nulls when Accept: application/vnd.pgrst.object+json;nulls=stripped; more than one row is PGRST116', async () => {
      const one = await get('conf_organizations?order=id&limit=1', 'application/vnd.pgrst.object+json;nulls=stripped')
      expect([one.status, one.json]).toEqual([200, { id: 1, name: 'Referee Org', manager_id: 1 }])
      expect(one.headers.get('content-type')).toBe('application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8')
      const many = await get('conf_organizations?select=*&id=lte.6', 'application/vnd.pgrst.object+json;nulls=stripped')
      expect([many.status, many.json]).toEqual([
        406,
        {
          details: 'The result contains 6 rows',
          message: 'Cannot coerce the result to a single JSON object',
          code: 'PGRST116',
          hint: null,
        },
      ])
    })
  })

  describe('SingularSpec', () => {
    it('.single() answers the object with the vnd.pgrst.object+json content type', async () => {
      const r = await get('conf_items?id=eq.5', 'application/vnd.pgrst.object+json')
      expect([r.status, r.json, r.headers.get('content-type')]).toEqual([
        200,
        { id: 5 },
        'application/vnd.pgrst.object+json; charset=utf-8',
      ])
    })
  })

  describe('CustomMediaSpec: no handler for the type', () => {
    it('text/plain, text/xml, application/octet-stream and made-up types are 406, on tables and RPC', async () => {
      expect((await get('conf_items', 'text/plain')).json).toEqual(unavailable('text/plain'))
      expect((await get('rpc/conf_add_them?a=1&b=2', 'text/xml')).json).toEqual(unavailable('text/xml'))
      expect((await get('rpc/conf_getitemrange?min=0&max=2', 'application/octet-stream')).json).toEqual(
        unavailable('application/octet-stream'),
      )
      const undef = await get('conf_items', 'undefined')
      expect([undef.status, undef.json]).toEqual([406, unavailable('undefined')])
    })
    it('RpcSpec "rejects unknown content type even if payload is good"', async () => {
      const post = await api(server, '/rest/v1/rpc/conf_add_them', { body: { a: 1, b: 2 }, headers: { Accept: 'audio/mpeg3' } })
      expect(post.status).toBe(406)
    })
  })

  describe('PlanSpec.disabledSpec: explain plans are off (db-plan-enabled = false, as on hosted Supabase)', () => {
    it("doesn't work on a table, an RPC or a delete, and writes nothing", async () => {
      const table = await get('conf_projects?id=in.(1,2,3)', 'application/vnd.pgrst.plan')
      expect([table.status, table.json]).toEqual([406, unavailable('application/vnd.pgrst.plan+text; for="application/json"')])
      expect((await get('rpc/conf_getallprojects?id=in.(1,2,3)', 'application/vnd.pgrst.plan')).status).toBe(406)
      const del = await api(server, '/rest/v1/conf_projects?id=in.(1,2,3)', {
        method: 'DELETE',
        headers: { Accept: 'application/vnd.pgrst.plan' },
      })
      expect(del.status).toBe(406)
      expect((await get('conf_projects?select=id', 'application/json')).json).toHaveLength(5)
    })
    it('supabase-js .explain() gets the 406 as its error', async () => {
      const r = await supabaseClient(server).from('conf_items').select('id').explain({ analyze: true })
      expect([r.status, r.error?.code, r.error?.message]).toEqual([
        406,
        'PGRST107',
        'None of these media types are available: application/vnd.pgrst.plan+text; for="application/json"; options=analyze',
      ])
    })
  })

  describe('supabase-js .csv() and .geojson()', () => {
    it('.csv() answers the CSV text', async () => {
      const r = await supabaseClient(server).from('conf_simple_pk').select('k,extra').order('k').csv()
      expect([r.status, r.data]).toEqual([200, 'k,extra\nxYYx,v\nxyyx,u'])
    })
    it('.geojson() needs PostGIS, which the embedded database lacks: the database error, as on a hosted project without it', async () => {
      const r = await supabaseClient(server).from('conf_items').select('id').geojson()
      expect(r.status).toBe(404)
      expect(r.error?.code).toBe('42883')
      expect(r.error?.message).toMatch(/st_asgeojson/i)
    })
  })
})
