import { describe, expect, it } from 'vitest'
import { nextIndex, previousAction, removeFromQueue, PREVIOUS_RESTART_THRESHOLD_S } from './queue.ts'
import { SAMPLE_SONGS } from '../lib/catalogue/sample-songs.ts'

const [a, b, c] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]

describe('queue rules', () => {
  it('next wraps from last to first', () => {
    expect(nextIndex(3, 0)).toBe(1)
    expect(nextIndex(3, 2)).toBe(0)
    expect(nextIndex(1, 0)).toBe(0)
    expect(nextIndex(0, -1)).toBe(-1)
  })

  it('previous restarts after more than 3 s, else goes back one wrapping to the last', () => {
    expect(PREVIOUS_RESTART_THRESHOLD_S).toBe(3)
    expect(previousAction(3, 1, 3.01)).toEqual({ kind: 'restart' })
    expect(previousAction(3, 1, 3)).toEqual({ kind: 'go', index: 0 })
    expect(previousAction(3, 0, 1)).toEqual({ kind: 'go', index: 2 })
    expect(previousAction(0, -1, 10)).toEqual({ kind: 'none' })
  })

  it('removing the current song makes the following song current, wrapping; emptied queue has none', () => {
    expect(removeFromQueue([a, b, c], b.id, b.id)).toMatchObject({ queue: [a, c], current: c, currentChanged: true })
    expect(removeFromQueue([a, b, c], c.id, c.id)).toMatchObject({ queue: [a, b], current: a, currentChanged: true })
    expect(removeFromQueue([a], a.id, a.id)).toMatchObject({ queue: [], current: null, currentChanged: true })
    expect(removeFromQueue([a, b], a.id, b.id)).toMatchObject({ queue: [a], current: a, currentChanged: false })
  })
})
