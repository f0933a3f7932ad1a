import { describe, expect, it } from 'vitest'
import { parseRange } from '../../supabase/local/storage/range.ts'

// The local Storage's Range header reading (the HTTP answers are in publishing.test.ts).
describe('parseRange', () => {
  it('reads first-last, open-ended and suffix ranges, clamped to the object', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 })
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 })
    expect(parseRange(' Bytes = 10 - 19 ', 1000)).toEqual({ start: 10, end: 19 })
  })
  it('answers the whole object for no, malformed, multiple or foreign-unit ranges', () => {
    for (const header of [undefined, 'bytes=', 'bytes=-', 'bytes=9-3', 'bytes=0-1,5-9', 'items=0-9', 'nonsense'])
      expect(parseRange(header, 1000), String(header)).toBeUndefined()
  })
  it('is unsatisfiable past the end, for an empty suffix and on an empty object', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
  })
})
