import { describe, expect, it } from 'vitest'
import { beatsBetween } from './metronome.ts'

describe('metronome beats', () => {
  it('lists the beats in a window with an accent on every bar (4/4)', () => {
    expect(beatsBetween(0, 2.1, 120)).toEqual([
      { time: 0, accent: true },
      { time: 0.5, accent: false },
      { time: 1, accent: false },
      { time: 1.5, accent: false },
      { time: 2, accent: true },
    ])
  })

  it('consecutive windows list every beat exactly once, however the windows fall', () => {
    const windows = [0, 0.13, 0.5, 0.61, 0.99999999999, 1.37, 2.5, 3.01, 4]
    const all = windows.slice(1).flatMap((to, i) => beatsBetween(windows[i]!, to, 90).map((b) => b.time))
    expect(all).toEqual(beatsBetween(0, 4, 90).map((b) => b.time))
    expect(new Set(all).size).toBe(all.length)
  })

  it('starts mid-timeline on the next beat', () => {
    expect(beatsBetween(2.6, 3.1, 120).map((b) => b.time)).toEqual([3])
    expect(beatsBetween(2.6, 2.9, 120)).toEqual([])
  })
})
