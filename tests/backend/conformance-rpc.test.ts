import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConformanceFixtures } from './support/conformance-fixtures.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, supabaseClient, type TestServer } from './support/local-backend.ts'

// RPC, replayed from PostgREST's test/spec/Feature/Query/RpcSpec.hs (github.com/PostgREST/postgrest):
// arguments (JSON in the body converted as json_to_record does, text in the query), results of every
// shape, and select / filters / order / paging / counts on the rows a function returns.

const ids = (...n: number[]) => n.map((id) => ({ id }))

describe.each(DATABASES)('RPC on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await createConformanceFixtures(server)
  }, 90_000)
  afterAll(() => stop?.())

  const post = (name: string, body: unknown, query = '', headers: Record<string, string> = {}) =>
    api(server, `/rest/v1/rpc/${name}${query}`, { body, headers })
  const get = (pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET') =>
    api(server, `/rest/v1/rpc/${pathAndQuery}`, { method, headers })

  describe('arguments', () => {
    it('"accepts a variety of arguments" in a JSON body: arrays become arrays, objects json/jsonb', async () => {
      const r = await post('conf_varied_arguments', {
        double: 3.1,
        varchar: 'hello',
        boolean: true,
        date: '20190101',
        arr: ['a', 'b', 'c'],
        integer: 43,
        json: { 'some key': 'some value' },
        jsonb: { 'another key': [1, 2, '3'] },
      })
      expect([r.status, r.json]).toEqual([
        200,
        {
          double: 3.1,
          varchar: 'hello',
          boolean: true,
          date: '2019-01-01',
          arr: ['a', 'b', 'c'],
          integer: 43,
          json: { 'some key': 'some value' },
          jsonb: { 'another key': [1, 2, '3'] },
        },
      ])
    })
    it('"accepts a variety of arguments with GET": text values, arrays as PostgreSQL literals', async () => {
      const r = await get('conf_varied_arguments?double=3.1&varchar=hello&boolean=true&date=20190101&arr=%7Ba,b,c%7D&integer=43')
      expect(r.json).toEqual({
        double: 3.1,
        varchar: 'hello',
        boolean: true,
        date: '2019-01-01',
        arr: ['a', 'b', 'c'],
        integer: 43,
        json: {},
        jsonb: {},
      })
    })
    it('"parses embedded JSON arguments as JSON" and "parses quoted JSON arguments as JSON string"', async () => {
      expect((await post('conf_json_argument', { arg: { key: 3 } })).json).toBe('object')
      expect((await post('conf_json_argument', { arg: '{ "key": 3 }' })).json).toBe('string')
    })
    it('a JSON array argument for an int[] parameter', async () => {
      expect((await post('conf_sum_array', { nums: [1, 2, 39] })).json).toBe(42)
    })
    it('"only takes the first object in case of array of objects payload"; objects with other keys are PGRST102', async () => {
      const r = await post('conf_add_them', [
        { a: 1, b: 2 },
        { a: 4, b: 6 },
        { a: 100, b: 200 },
      ])
      expect([r.status, r.json]).toEqual([200, 3])
      const mixed = await post('conf_add_them', [{ a: 1, b: 2 }, { a: 4 }])
      expect([mixed.status, mixed.json.message]).toEqual([400, 'All object keys must match'])
    })
  })

  describe('proc return types', () => {
    it('returns setof integers, a table (RETURNS TABLE), an empty rowset', async () => {
      expect((await post('conf_ret_setof_integers', {})).json).toEqual([1, 2, 3])
      expect((await post('conf_ret_table', {})).json).toEqual([
        { id: 1, name: 'one' },
        { id: 2, name: null },
        { id: 3, name: 'three' },
      ])
      expect((await get('conf_getitemrange?min=2&max=2')).json).toEqual([])
    })
    it('a void function answers 204 without a body', async () => {
      const r = await post('conf_touch', {})
      expect([r.status, r.text]).toEqual([204, ''])
    })
    it('a scalar answers the value; .single() of a set answers one object', async () => {
      expect((await get('conf_add_them?a=2&b=3')).json).toBe(5)
      const one = await get('conf_search?id=3', { Accept: 'application/vnd.pgrst.object+json' })
      expect([one.status, one.json]).toEqual([200, { id: 3 }])
    })
  })

  describe('shaping the rows a function returns', () => {
    it('select, filters, order, limit and offset on a set of rows (POST: every query parameter shapes)', async () => {
      const r = await post('conf_getitemrange', { min: 0, max: 15 }, '?select=id&id=gt.10&order=id.desc&limit=2&offset=1')
      expect([r.json, r.headers.get('content-range')]).toEqual([ids(14, 13), '1-2/*'])
    })
    it('GET: a parameter with an operator is a filter, the others are arguments', async () => {
      const r = await get('conf_getitemrange?min=0&max=15&id=in.(2,4,99)&order=id')
      expect(r.json).toEqual(ids(2, 4))
    })
    it("select with embedding on a function returning a table's rows; RETURNS TABLE rows filter by their columns", async () => {
      const r = await get('conf_getallprojects?select=id,name,conf_clients(name)&id=lte.3&order=id')
      expect(r.json).toEqual([
        { id: 1, name: 'Windows 7', conf_clients: { name: 'Microsoft' } },
        { id: 2, name: 'Windows 10', conf_clients: { name: 'Microsoft' } },
        { id: 3, name: 'IOS', conf_clients: { name: 'Apple' } },
      ])
      expect((await get('conf_ret_table?name=not.is.null&select=name')).json).toEqual([{ name: 'one' }, { name: 'three' }])
    })
    it("an unknown column is PostgreSQL's 42703 (400); a filter on a scalar result too", async () => {
      expect((await get('conf_getitemrange?min=0&max=15&nope=eq.1')).json.code).toBe('42703')
      expect((await get('conf_add_them?a=1&b=2&x=eq.3')).status).toBe(400)
    })
    it('count=exact gives the total of the filtered rows, and 206 for a part', async () => {
      const r = await get('conf_getitemrange?min=0&max=15&id=gt.5&limit=3', { Prefer: 'count=exact' })
      expect([r.status, r.headers.get('content-range'), r.json]).toEqual([206, '0-2/10', ids(6, 7, 8)])
    })
    it('HEAD answers the range and count without a body', async () => {
      const r = await get('conf_getitemrange?min=0&max=15', { Prefer: 'count=exact' }, 'HEAD')
      expect([r.status, r.text, r.headers.get('content-range')]).toEqual([200, '', '0-14/15'])
    })
    it('the function runs once even when counted (a set-returning function that deletes)', async () => {
      const r = await post('conf_delete_items_returns_setof', {}, '?limit=2&order=id', { Prefer: 'count=exact' })
      expect([r.status, r.headers.get('content-range'), r.json]).toEqual([206, '0-1/15', ids(1, 2)])
      await server.db.exec('insert into public.conf_items select generate_series(1, 15)')
    })
  })

  // PostgREST's transactions reference ("Access Mode on Functions"): GET and HEAD run READ ONLY
  // whatever the function's volatility, so a function that writes fails with PostgreSQL's 25006,
  // which PostgREST answers 405; POST runs it read-write.
  describe('GET and HEAD are read-only', () => {
    it('a function that writes, called with GET or HEAD, is 405 (25006) and writes nothing; POST still runs it', async () => {
      for (const method of ['GET', 'HEAD']) {
        const r = await get('conf_delete_items_returns_setof', {}, method)
        expect(r.status, method).toBe(405)
        if (method === 'GET') expect(r.json).toMatchObject({ code: '25006', message: expect.stringContaining('read-only transaction') })
      }
      expect((await server.db.query<{ n: number }>('select count(*)::int as n from public.conf_items')).rows[0]!.n).toBe(15)
      const posted = await post('conf_delete_items_returns_setof', {}, '?limit=1&order=id')
      expect([posted.status, posted.json]).toEqual([200, ids(1)])
      await server.db.exec('truncate public.conf_items; insert into public.conf_items select generate_series(1, 15)')
    })
    it('a volatile function that only reads answers a GET', async () => {
      expect((await get('conf_touch')).status).toBe(204)
    })
  })

  // Hosted Supabase's gateway (Kong key-auth) answers before PostgREST: no project key, no query.
  describe('the API key, as the gateway asks for it', () => {
    const raw = (path: string, init: RequestInit = {}) => fetch(`${server.url}/rest/v1/${path}`, init)
    it('no apikey header or parameter: 401 "No API key found in request", for a read, an RPC and a write', async () => {
      for (const [path, init] of [
        ['songs?select=id', {}],
        ['rpc/conf_add_them?a=1&b=2', {}],
        ['rpc/conf_touch', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }],
      ] as const) {
        const r = await raw(path, init)
        expect([r.status, await r.json()], path).toEqual([
          401,
          { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' },
        ])
      }
    })
    it('a key that is not one of the project\'s: 401 "Invalid API key", even a valid user token', async () => {
      const user = await supabaseClient(server).auth.signUp({ email: `key-${Date.now()}@example.com`, password: 'correct-horse' })
      for (const apikey of ['not-a-key', user.data.session!.access_token]) {
        const r = await raw('songs?select=id&limit=1', { headers: { apikey } })
        expect([r.status, await r.json()]).toEqual([
          401,
          { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
        ])
      }
    })
    it('the key as the apikey query parameter is accepted and is not a function argument', async () => {
      const r = await raw(`rpc/conf_add_them?a=2&b=3&apikey=${encodeURIComponent(server.keys.anonKey)}`)
      expect([r.status, await r.json()]).toEqual([200, 5])
    })
  })

  describe('through supabase-js', () => {
    it('.rpc() with count, then .select().gt().order().range()', async () => {
      const client = supabaseClient(server)
      const r = await client
        .rpc('conf_getitemrange', { min: 0, max: 15 }, { count: 'exact' })
        .select('id')
        .gt('id', 12)
        .order('id', { ascending: false })
        .range(0, 1)
      expect([r.status, r.data, r.count]).toEqual([206, ids(15, 14), 3])
      const head = await client.rpc('conf_getitemrange', { min: 0, max: 15 }, { count: 'exact', head: true })
      expect([head.data, head.count]).toEqual([null, 15])
      const single = await client.rpc('conf_search', { id: 4 }).single()
      expect(single.data).toEqual({ id: 4 })
    })
  })
})
