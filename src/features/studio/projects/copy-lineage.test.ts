import { describe, expect, it } from 'vitest'
import { conflictCopyName, deviceName, overwritesUnseenVersion } from './copy-lineage.ts'

const HERE = 'browser-aaaa-1111'
const THERE = 'browser-bbbb-2222'

describe('which account version an upload may replace', () => {
  it('nothing in the account yet, or the very version this browser holds: the upload goes ahead', () => {
    expect(overwritesUnseenVersion(null, { updatedAt: 5 }, HERE)).toBe(false)
    expect(overwritesUnseenVersion({ updatedAt: 5, device: THERE }, { updatedAt: 5, copyOf: 1 }, HERE)).toBe(false)
  })

  it('a version this browser descends from (downloaded, or uploaded from here) is replaced', () => {
    expect(overwritesUnseenVersion({ updatedAt: 3, device: THERE }, { updatedAt: 9, copyOf: 3 }, HERE)).toBe(false)
    // Uploaded from here, whatever the local lineage says (a save raced the upload's note of it).
    expect(overwritesUnseenVersion({ updatedAt: 7, device: HERE }, { updatedAt: 9, copyOf: 3 }, HERE)).toBe(false)
  })

  it('another browser saved a version this one never saw: not replaced, older or newer by the clock', () => {
    expect(overwritesUnseenVersion({ updatedAt: 7, device: THERE }, { updatedAt: 9, copyOf: 3 }, HERE)).toBe(true)
    // The other browser's clock is behind: its version looks older, and it is still not this one's to replace.
    expect(overwritesUnseenVersion({ updatedAt: 2, device: THERE }, { updatedAt: 9, copyOf: 3 }, HERE)).toBe(true)
    expect(overwritesUnseenVersion({ updatedAt: 7, device: THERE }, { updatedAt: 9 }, HERE)).toBe(true)
  })

  it('a manifest from before browsers were named, and a local project from before lineage: only a newer one is kept', () => {
    expect(overwritesUnseenVersion({ updatedAt: 7 }, { updatedAt: 9 }, HERE)).toBe(false)
    expect(overwritesUnseenVersion({ updatedAt: 11 }, { updatedAt: 9 }, HERE)).toBe(true)
    // With a lineage, an unnamed version it does not descend from is someone else's.
    expect(overwritesUnseenVersion({ updatedAt: 7 }, { updatedAt: 9, copyOf: 3 }, HERE)).toBe(true)
  })
})

describe("this browser's name", () => {
  it('is made once and kept; a hand-edited one is replaced', () => {
    const kept = new Map<string, string>()
    const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) }
    const first = deviceName(storage)
    expect(deviceName(storage)).toBe(first)
    kept.set('cube.studio.device', '<script>')
    expect(deviceName(storage)).not.toBe('<script>')
    expect(deviceName(null)).toMatch(/^[\w-]{8,64}$/)
  })
})

describe('the kept copy', () => {
  it('is named after the project and fits the name limit', () => {
    expect(conflictCopyName('Night Drive', 120)).toBe('Night Drive (conflicting copy)')
    const long = conflictCopyName('x'.repeat(200), 120)
    expect(long).toHaveLength(120)
    expect(long.endsWith(' (conflicting copy)')).toBe(true)
  })
})
