import { describe, expect, it } from 'vitest'
import { bindingReply, bindingWants, parseBindings } from '../../supabase/local/realtime/bindings.ts'
import { conditionSql, parseFilter } from '../../supabase/local/realtime/filters.ts'
import { decode, encode } from '../../supabase/local/realtime/protocol.ts'

// The local Realtime's filters and message framing (supabase/local/realtime/), as realtime-js sends them
// and hosted Realtime reads them (lib/extensions/postgres_cdc_rls/subscriptions.ex doctests).

describe('postgres_changes filters, read as hosted Realtime reads them', () => {
  it('reads every operator, not. negation, AND of conditions, quoted values and in-lists', () => {
    expect(parseFilter('song_id=eq.neon-drift')).toEqual([{ column: 'song_id', op: 'eq', value: 'neon-drift', negate: false }])
    expect(parseFilter('id=gt.0,id=lt.100')).toEqual([
      { column: 'id', op: 'gt', value: '0', negate: false },
      { column: 'id', op: 'lt', value: '100', negate: false },
    ])
    expect(parseFilter('body=not.like.hey%')).toEqual([{ column: 'body', op: 'like', value: 'hey%', negate: true }])
    expect(parseFilter('status=in.(passed,"a,b")')).toEqual([{ column: 'status', op: 'in', value: '{passed,"a,b"}', negate: false }])
    expect(parseFilter('title=eq."x, \\"y\\""')).toEqual([{ column: 'title', op: 'eq', value: 'x, "y"', negate: false }])
    for (const op of ['neq', 'lte', 'gte', 'ilike', 'is', 'match', 'imatch', 'isdistinct'])
      expect(parseFilter(`c=${op}.v`)).toEqual([{ column: 'c', op, value: 'v', negate: false }])
    expect(parseFilter('   ')).toEqual([])
  })
  it("refuses what hosted refuses, with hosted's words", () => {
    expect(parseFilter('subject=foo.hey')).toBe('Error parsing `filter` params: ["foo", "hey"]')
    expect(parseFilter('undefined')).toBe('Error parsing `filter` params: ["undefined"]')
    expect(parseFilter('a=eq.1,,b=eq.2')).toBe(
      'Error parsing `filter` params: filter must not contain empty segments (check for extra commas)',
    )
    expect(parseFilter('a=in.1,2')).toBe('Error parsing `filter` params: `in` filter value must be wrapped by parentheses')
  })
  it('a condition becomes SQL with its value as a parameter, NULL never matching', () => {
    const values: unknown[] = []
    expect(conditionSql({ column: 'n', op: 'gte', value: '5', negate: false, type: 'integer' }, values)).toBe(
      'coalesce((t."n" >= $1::integer), false)',
    )
    expect(conditionSql({ column: 's', op: 'in', value: '{a,b}', negate: true, type: 'text' }, values)).toBe(
      'coalesce(not (t."s" = any ($2::text[])), false)',
    )
    expect(conditionSql({ column: 'ok', op: 'is', value: 'null', negate: false, type: 'boolean' }, values)).toBe(
      'coalesce((t."ok" IS NULL), false)',
    )
    expect(values).toEqual(['5', '{a,b}'])
  })
  it('a bad filter does not refuse the join (postgres_changes says why); bindings are echoed exactly as sent', () => {
    let id = 0
    expect(parseBindings([{ event: 'TRUNCATE', schema: 'public' }], () => ++id)).toBeInstanceOf(Error)
    const bad = parseBindings([{ event: '*', schema: 'public', table: 'comments', filter: 'song_id=nope.x' }], () => ++id)
    if (bad instanceof Error) throw bad
    expect(bad.problem).toBe('Error parsing `filter` params: ["nope", "x"]')
    id = 0
    const parsed = parseBindings(
      [
        { event: '*', schema: 'public', table: 'comments', filter: 'song_id=eq.a' },
        { event: 'INSERT', schema: '*' },
      ],
      () => ++id,
    )
    if (parsed instanceof Error) throw parsed
    const { bindings } = parsed
    expect(parsed.problem).toBeUndefined()
    expect(bindings.map(bindingReply)).toEqual([
      { event: '*', schema: 'public', table: 'comments', filter: 'song_id=eq.a', id: 1 },
      { event: 'INSERT', schema: '*', id: 2 },
    ])
    expect(bindingWants(bindings[0]!, 'public', 'comments', 'DELETE')).toBe(true)
    expect(bindingWants(bindings[0]!, 'public', 'votes', 'INSERT')).toBe(false)
    expect(bindingWants(bindings[1]!, 'public', 'votes', 'INSERT')).toBe(true)
    expect(bindingWants(bindings[1]!, 'public', 'votes', 'UPDATE')).toBe(false)
  })
})

describe('message framing', () => {
  it('vsn 2.0.0 arrays and 1.0.0 objects round-trip; anything else is ignored', () => {
    const m = { joinRef: '1', ref: '2', topic: 'realtime:x', event: 'phx_join', payload: { a: 1 } }
    expect(decode(encode(m, '2.0.0'), '2.0.0')).toEqual(m)
    expect(decode(encode(m, '1.0.0'), '1.0.0')).toEqual(m)
    expect(JSON.parse(encode(m, '2.0.0'))).toEqual(['1', '2', 'realtime:x', 'phx_join', { a: 1 }])
    expect(decode('not json', '2.0.0')).toBeUndefined()
    expect(decode('[1,2,3]', '2.0.0')).toBeUndefined()
  })
})
