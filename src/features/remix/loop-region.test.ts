import { describe, expect, it } from 'vitest'
import { dragRegion, formatLoop, markLoop, MIN_DRAG_PX, scaleRegion, timeAt } from './loop-region.ts'

describe('loop region arithmetic', () => {
  it('maps pixels to seconds, clamped to the waveform', () => {
    expect(timeAt(150, 600, 80)).toBe(20)
    expect(timeAt(-10, 600, 80)).toBe(0)
    expect(timeAt(700, 600, 80)).toBe(80)
    expect(timeAt(100, 0, 80)).toBe(0)
    expect(timeAt(100, 600, 0)).toBe(0)
  })

  it('a press that moves less than MIN_DRAG_PX is a click, not a loop — even on a narrow waveform', () => {
    expect(dragRegion(100, 100, 600, 80)).toBeNull()
    expect(dragRegion(100, 100 + MIN_DRAG_PX - 1, 600, 80)).toBeNull()
    // 300 px for 5 minutes: a 5 px tap jitter would be a 5 s loop.
    expect(dragRegion(100, 105, 300, 300)).toBeNull()
  })

  it('a drag selects the region between press and pointer, either direction', () => {
    expect(dragRegion(180, 270, 600, 80)).toEqual({ start: 24, end: 36 })
    expect(dragRegion(270, 180, 600, 80)).toEqual({ start: 24, end: 36 })
    expect(dragRegion(500, 900, 600, 60)).toEqual({ start: 50, end: 60 })
  })

  it('a region shorter than 0.25 s is no loop (a long waveform of a short source)', () => {
    expect(dragRegion(0, 10, 4000, 20)).toBeNull()
    expect(dragRegion(0, 60, 4000, 20)).toEqual({ start: 0, end: 0.3 })
  })

  it('reads as minutes and seconds', () => {
    expect(formatLoop({ start: 12.4, end: 18.6 })).toBe('Loop 0:12 – 0:19')
    expect(formatLoop({ start: 59.6, end: 125 })).toBe('Loop 1:00 – 2:05')
  })

  it('follows a Beat Match stretch (old tempo / new tempo)', () => {
    expect(scaleRegion({ start: 24, end: 36 }, 120 / 130)).toEqual({ start: (24 * 120) / 130, end: (36 * 120) / 130 })
    expect(scaleRegion(null, 0.9)).toBeNull()
    expect(scaleRegion({ start: 1, end: 2 }, Number.NaN)).toEqual({ start: 1, end: 2 })
  })

  it("keyboard A–B: '[' then ']' at the playhead make a region; a mark keeps the other edge when it still can", () => {
    const a = markLoop(null, 'start', 20, 80)
    expect(a).toEqual({ start: 20, end: 80 })
    expect(markLoop(a, 'end', 30, 80)).toEqual({ start: 20, end: 30 })
    // ']' before the start: the start goes back to 0.
    expect(markLoop({ start: 20, end: 30 }, 'end', 10, 80)).toEqual({ start: 0, end: 10 })
    // '[' after the end: the end goes to the source's end.
    expect(markLoop({ start: 20, end: 30 }, 'start', 50, 80)).toEqual({ start: 50, end: 80 })
    // A mark that makes no region changes nothing.
    expect(markLoop(null, 'end', 0.1, 80)).toBeNull()
    expect(markLoop({ start: 20, end: 30 }, 'start', 79.9, 80)).toEqual({ start: 20, end: 30 })
    expect(markLoop(null, 'start', 200, 80)).toBeNull()
  })
})
