import { beforeEach, describe, expect, it } from 'vitest'
import { countFreeSave, freeSavesLeft } from './free-saves.ts'

class MemoryStorage {
  private items = new Map<string, string>()
  getItem = (k: string) => this.items.get(k) ?? null
  setItem = (k: string, v: string) => void this.items.set(k, v)
  removeItem = (k: string) => void this.items.delete(k)
}

describe('visitor free saves (Maximum free songs)', () => {
  beforeEach(() => {
    ;(globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage()
  })

  it('counts saves per UTC day up to the maximum', () => {
    const day = new Date('2026-11-23T10:00:00Z')
    expect(freeSavesLeft(2, day)).toBe(2)
    countFreeSave(day)
    expect(freeSavesLeft(2, day)).toBe(1)
    countFreeSave(day)
    expect(freeSavesLeft(2, day)).toBe(0)
    expect(freeSavesLeft(0, day)).toBe(0)
    // A new UTC day starts again.
    expect(freeSavesLeft(2, new Date('2026-11-24T00:00:01Z'))).toBe(2)
  })

  it('ignores a hand-edited or broken count', () => {
    localStorage.setItem('free-song-saves', '{"day":"2026-11-23","count":-5}')
    expect(freeSavesLeft(1, new Date('2026-11-23T10:00:00Z'))).toBe(1)
    localStorage.setItem('free-song-saves', 'not json')
    expect(freeSavesLeft(1, new Date('2026-11-23T10:00:00Z'))).toBe(1)
  })
})
