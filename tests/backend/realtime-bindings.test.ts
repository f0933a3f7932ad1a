import { describe, expect, it } from 'vitest'
import { bindingReply, bindingWants, parseBindings, parseFilter } from '../../supabase/local/realtime/bindings.ts'
import { decode, encode } from '../../supabase/local/realtime/protocol.ts'

// The local Realtime's filters and message framing (supabase/local/realtime/), as realtime-js sends them.

describe('postgres_changes filters', () => {
  const test = (filter: string, row: Record<string, unknown>) => {
    const f = parseFilter(filter)
    if (f instanceof Error || !f) throw new Error(`bad filter ${filter}`)
    return f(row)
  }
  it('eq, neq, lt/lte/gt/gte (numeric when both sides are numbers) and in', () => {
    expect(test('song_id=eq.neon-drift', { song_id: 'neon-drift' })).toBe(true)
    expect(test('song_id=eq.neon-drift', { song_id: 'orbital-haze' })).toBe(false)
    expect(test('votes_for=gt.9', { votes_for: 10 })).toBe(true)
    expect(test('votes_for=lte.9', { votes_for: 10 })).toBe(false)
    expect(test('status=neq.active', { status: 'passed' })).toBe(true)
    expect(test('status=in.(passed,rejected)', { status: 'rejected' })).toBe(true)
    expect(test('status=in.(passed,rejected)', { status: 'active' })).toBe(false)
    // A DELETE carries only some columns: a filter on another one cannot decide.
    expect(test('song_id=eq.x', { id: '1' })).toBeUndefined()
  })
  it('refuses malformed filters and events, and echoes bindings exactly as sent', () => {
    expect(parseFilter('song_id=like.%x%')).toBeInstanceOf(Error)
    expect(parseFilter('drop table; --')).toBeInstanceOf(Error)
    let id = 0
    expect(parseBindings([{ event: 'TRUNCATE', schema: 'public' }], () => ++id)).toBeInstanceOf(Error)
    const bindings = parseBindings(
      [
        { event: '*', schema: 'public', table: 'comments', filter: 'song_id=eq.a' },
        { event: 'INSERT', schema: '*' },
      ],
      () => ++id,
    )
    if (bindings instanceof Error) throw bindings
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
