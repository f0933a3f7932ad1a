import { describe, expect, it } from 'vitest'
import { EMPTY_SNAPSHOT, initialDeckState } from './deck-machine.ts'
import { withCrossfade, withItemGain, withLoad, withNext, withSeek, withStop, withVolume } from './deck-requests.ts'

describe('the deck calls as snapshot edits', () => {
  it('a load is a new request, paused, unless it is the item the deck moved on to while playing', () => {
    const fresh = withLoad(initialDeckState(), 'a', 'A', { gainDb: -3 })
    expect(fresh.item).toMatchObject({ url: 'a', label: 'A', gainDb: -3 })
    expect(fresh.playing).toBe(false)
    const again = withLoad(initialDeckState(), 'a', 'A')
    expect(again.item!.seq).toBeGreaterThan(fresh.item!.seq)
    const advanced = { ...initialDeckState(), phase: 'playing' as const, advancedTo: 'b', desired: { ...EMPTY_SNAPSHOT, playing: true } }
    expect(withLoad(advanced, 'b', 'B').playing).toBe(true)
    expect(withLoad(advanced, 'c', 'C').playing).toBe(false)
  })

  it('seeks are numbered; settings are clamped; stop clears the item and the next', () => {
    const a = withSeek(EMPTY_SNAPSHOT, 3)
    expect(withSeek(a, 3).seek!.seq).toBeGreaterThan(a.seek!.seq)
    expect(withSeek(a, NaN)).toBe(a)
    expect(withVolume(EMPTY_SNAPSHOT, 140).volume).toBe(100)
    expect(withCrossfade(EMPTY_SNAPSHOT, 99).crossfade).toBe(12)
    const loaded = withNext(withLoad(initialDeckState(), 'a', 'A'), 'b', '')
    expect(loaded.next).toEqual({ url: 'b', label: 'b', gainDb: 0 })
    expect(withItemGain(loaded, -6).item!.gainDb).toBe(-6)
    expect(withItemGain(loaded, -6).item!.seq).toBe(loaded.item!.seq)
    expect(withStop(loaded)).toMatchObject({ item: null, next: null, playing: false })
  })
})
