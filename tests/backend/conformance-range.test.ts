import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConformanceFixtures } from './support/conformance-fixtures.ts'
import { DATABASES, serverOn } from './support/each-database.ts'
import { api, supabaseClient, type TestServer } from './support/local-backend.ts'

// Ranges, replayed from PostgREST's test/spec/Feature/Query/RangeSpec.hs (github.com/PostgREST/postgrest):
// limit/offset, the Range header (GET only), Content-Range, 206 and 416 (PGRST103), on tables and RPC.

const ids = (...n: number[]) => n.map((id) => ({ id }))
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }))

describe.each(DATABASES)('Range on %s', (database) => {
  let server: TestServer
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    ;({ server, stop } = await serverOn(database))
    await createConformanceFixtures(server)
  }, 90_000)
  afterAll(() => stop?.())

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => api(server, `/rest/v1/${path}`, { method, headers })

  describe('GET /items, without range headers', () => {
    it('count with an empty body returns Content-Range */0', async () => {
      const r = await get('conf_items?id=eq.0', { Prefer: 'count=exact' })
      expect([r.status, r.json, r.headers.get('content-range')]).toEqual([200, [], '*/0'])
    })
    it("when I don't want the count: */* for nothing, range/* otherwise (even with filters)", async () => {
      expect((await get('conf_menagerie', { Prefer: 'count=none' })).headers.get('content-range')).toBe('*/*')
      const all = await get('conf_items?order=id', { Prefer: 'count=none' })
      expect([all.json, all.headers.get('content-range')]).toEqual([range(1, 15), '0-14/*'])
      expect((await get('conf_items?id=eq.1&order=id')).headers.get('content-range')).toBe('0-0/*')
    })
    it('limit/offset: top level limit, limit and offset on first level, HEAD gives the same range without a body', async () => {
      const limited = await get('conf_items?select=id&order=id.asc&limit=3')
      expect([limited.status, limited.json, limited.headers.get('content-range')]).toEqual([200, ids(1, 2, 3), '0-2/*'])
      const paged = await get('conf_items?select=id&order=id.asc&limit=3&offset=2')
      expect([paged.json, paged.headers.get('content-range')]).toEqual([ids(3, 4, 5), '2-4/*'])
      const head = await get('conf_items?select=id&order=id.asc&limit=3&offset=2', {}, 'HEAD')
      expect([head.status, head.text, head.headers.get('content-range')]).toEqual([200, '', '2-4/*'])
      expect(head.headers.get('content-type')).toMatch(/^application\/json/)
    })
    it('offset=0 is a no-op, a negative offset too; limit=0 returns [] with */*', async () => {
      expect((await get('conf_items?offset=0&id=eq.0')).headers.get('content-range')).toBe('*/*')
      expect((await get('conf_items?offset=0&id=eq.0', { Prefer: 'count=exact' })).headers.get('content-range')).toBe('*/0')
      expect((await get('conf_items?select=id&offset=-4&order=id')).headers.get('content-range')).toBe('0-14/*')
      const zero = await get('conf_items?select=id&limit=0')
      expect([zero.status, zero.json, zero.headers.get('content-range')]).toEqual([200, [], '*/*'])
    })
    it('fails if limit is negative (416 PGRST103)', async () => {
      const r = await get('conf_items?select=id&limit=-1')
      expect([r.status, r.json]).toEqual([
        416,
        {
          message: 'Requested range not satisfiable',
          code: 'PGRST103',
          details: 'Limit should be greater than or equal to zero.',
          hint: null,
        },
      ])
    })
    it('of invalid range: an offset past the rows with count=exact is 416 with Content-Range */total', async () => {
      const empty = await get('conf_menagerie?offset=1', { Prefer: 'count=exact' })
      expect([empty.status, empty.headers.get('content-range'), empty.json]).toEqual([
        416,
        '*/0',
        {
          message: 'Requested range not satisfiable',
          code: 'PGRST103',
          details: 'An offset of 1 was requested, but there are only 0 rows.',
          hint: null,
        },
      ])
      const past = await get('conf_items?offset=100', { Prefer: 'count=exact' })
      expect([past.status, past.headers.get('content-range'), past.json.details]).toEqual([
        416,
        '*/15',
        'An offset of 100 was requested, but there are only 15 rows.',
      ])
    })
    it('a counted part of the rows is 206 Partial Content; all of them 200', async () => {
      const part = await get('conf_items?select=id&order=id&limit=2&offset=3', { Prefer: 'count=exact' })
      expect([part.status, part.json, part.headers.get('content-range')]).toEqual([206, ids(4, 5), '3-4/15'])
      const all = await get('conf_items?select=id', { Prefer: 'count=exact' })
      expect([all.status, all.headers.get('content-range')]).toEqual([200, '0-14/15'])
    })
  })

  describe("count=planned and count=estimated (the planner's row estimate after ANALYZE)", () => {
    it('obtains the full range (HEAD) and ignores limit/offset on the planned count', async () => {
      const full = await get('conf_items', { Prefer: 'count=planned' }, 'HEAD')
      expect([full.status, full.headers.get('content-range')]).toEqual([200, '0-14/15'])
      const part = await get('conf_items?limit=2&offset=3', { Prefer: 'count=planned' }, 'HEAD')
      expect([part.status, part.headers.get('content-range')]).toEqual([206, '3-4/15'])
      const estimated = await get('conf_items?limit=2', { Prefer: 'count=estimated' })
      expect([estimated.status, estimated.headers.get('content-range')]).toEqual([206, '0-1/15'])
    })
  })

  describe('GET /items, with range headers', () => {
    it('of acceptable range: partial content, open-ended, one item, truncation beyond the end', async () => {
      const first = await get('conf_items?order=id', { Range: '0-1', 'Range-Unit': 'items' })
      expect([first.status, first.json, first.headers.get('content-range')]).toEqual([200, ids(1, 2), '0-1/*'])
      expect((await get('conf_items', { Range: '0-', 'Range-Unit': 'items' })).status).toBe(200)
      expect((await get('conf_items', { Range: '0-0' })).headers.get('content-range')).toBe('0-0/*')
      const beyond = await get('conf_items?order=id', { Range: '10-100' })
      expect([beyond.json, beyond.headers.get('content-range')]).toEqual([range(11, 15), '10-14/*'])
      const none = await get('conf_menagerie', { Range: '0-1' })
      expect([none.status, none.text, none.headers.get('content-range')]).toEqual([200, '[]', '*/*'])
    })
    it('headers override get parameters (the intersection of both)', async () => {
      const r = await get('conf_items?select=id&order=id.asc&limit=3', { Range: '0-1' })
      expect([r.json, r.headers.get('content-range')]).toEqual([ids(1, 2), '0-1/*'])
    })
    it('of invalid range: offside range, and a start past the rows when counted (416)', async () => {
      const offside = await get('conf_items', { Range: '1-0' })
      expect([offside.status, offside.json.code, offside.json.details]).toEqual([
        416,
        'PGRST103',
        'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
      ])
      const past = await get('conf_menagerie', { Range: '1-2', Prefer: 'count=exact' })
      expect([past.status, past.headers.get('content-range'), past.json.details]).toEqual([
        416,
        '*/0',
        'An offset of 1 was requested, but there are only 0 rows.',
      ])
    })
    it('the Range header is ignored on other methods than GET (RFC 9110)', async () => {
      const head = await get('conf_items', { Range: '0-1' }, 'HEAD')
      expect(head.headers.get('content-range')).toBe('0-14/*')
    })
  })

  describe('GET /rpc/getitemrange', () => {
    it('without range headers: the whole range, */* for an empty one, range/* otherwise', async () => {
      expect((await get('rpc/conf_getitemrange?min=0&max=15')).status).toBe(200)
      const empty = await get('rpc/conf_getitemrange?min=2&max=2')
      expect([empty.json, empty.headers.get('content-range'), empty.headers.get('content-length')]).toEqual([[], '*/*', '2'])
      const all = await get('rpc/conf_getitemrange?order=id&min=0&max=15')
      expect([all.json, all.headers.get('content-range')]).toEqual([range(1, 15), '0-14/*'])
    })
    it('of invalid range: a start past the rows with count=exact (416)', async () => {
      const r = await get('rpc/conf_getitemrange?offset=100&min=0&max=15', { Prefer: 'count=exact' })
      expect([r.status, r.headers.get('content-range'), r.json.details]).toEqual([
        416,
        '*/15',
        'An offset of 100 was requested, but there are only 15 rows.',
      ])
      const none = await get('rpc/conf_getitemrange?offset=1&min=2&max=2', { Prefer: 'count=exact' })
      expect([none.status, none.headers.get('content-range')]).toEqual([416, '*/0'])
    })
    it('with range headers: partial content, one item, truncation; offside range refused', async () => {
      const two = await get('rpc/conf_getitemrange?min=0&max=15', { Range: '0-1' })
      expect([two.status, two.headers.get('content-range'), two.headers.get('content-length')]).toEqual([200, '0-1/*', '22'])
      expect((await get('rpc/conf_getitemrange?min=0&max=15', { Range: '0-0' })).headers.get('content-range')).toBe('0-0/*')
      expect((await get('rpc/conf_getitemrange?min=0&max=15', { Range: '10-100' })).headers.get('content-range')).toBe('10-14/*')
      expect((await get('rpc/conf_getitemrange?min=2&max=2', { Range: '1-0' })).status).toBe(416)
      const counted = await get('rpc/conf_getitemrange?min=0&max=15', { Range: '100-199', Prefer: 'count=exact' })
      expect([counted.status, counted.headers.get('content-range')]).toEqual([416, '*/15'])
    })
  })

  describe('through supabase-js (.range() is limit/offset; count reads Content-Range)', () => {
    it('range with count=exact answers 206 with the total; head counts without rows', async () => {
      const client = supabaseClient(server)
      const page = await client.from('conf_items').select('id', { count: 'exact' }).order('id').range(2, 4)
      expect([page.status, page.data, page.count]).toEqual([206, ids(3, 4, 5), 15])
      const head = await client.from('conf_items').select('*', { count: 'exact', head: true }).gt('id', 10)
      expect([head.status, head.data, head.count]).toEqual([200, null, 5])
      const past = await client.from('conf_items').select('id', { count: 'exact' }).range(100, 101)
      expect([past.status, past.error?.code]).toEqual([416, 'PGRST103'])
    })
  })
})
