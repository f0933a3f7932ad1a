import { describe, expect, it } from 'vitest'
import { emptyHistory, record, redo, redoLabel, undo, undoLabel, type EditHistory } from './edit-history.ts'

type S = { n: number }

/** Applies `steps` edits n → n+1, each its own step (no coalesce key), starting from n = 0. */
function edits(steps: number, limit?: number) {
  let h: EditHistory<S> = emptyHistory(limit)
  let state: S = { n: 0 }
  for (let i = 0; i < steps; i++) {
    h = record(h, state, { label: `step ${i + 1}` }, i)
    state = { n: i + 1 }
  }
  return { h, state }
}

describe('edit history', () => {
  it('150 steps undo back to the start and redo forward to the end, in order, by reference', () => {
    let { h, state } = edits(150)
    const start = h.past[0]!.state
    for (let i = 150; i > 0; i--) {
      expect(undoLabel(h)).toBe(`step ${i}`)
      const r = undo(h, state)!
      h = r.history
      state = r.state
      expect(state.n).toBe(i - 1)
    }
    expect(state).toBe(start)
    expect(undo(h, state)).toBeNull()
    for (let i = 1; i <= 150; i++) {
      expect(redoLabel(h)).toBe(`step ${i}`)
      const r = redo(h, state)!
      h = r.history
      state = r.state
      expect(state.n).toBe(i)
    }
    expect(redo(h, state)).toBeNull()
    expect(h.past).toHaveLength(150)
  })

  it('the cap holds: only the newest `limit` steps stay undoable', () => {
    let { h, state } = edits(250)
    expect(h.past).toHaveLength(200)
    while (h.past.length > 0) {
      const r = undo(h, state)!
      h = r.history
      state = r.state
    }
    expect(state.n).toBe(50)
    expect(edits(20, 5).h.past.map((e) => e.state.n)).toEqual([15, 16, 17, 18, 19])
  })

  it('one gesture (same key, infinite window) is one step however many changes it makes', () => {
    let h: EditHistory<S> = emptyHistory()
    let state: S = { n: 0 }
    for (let i = 1; i <= 40; i++) {
      h = record(h, state, { label: 'Volume change', coalesceKey: 'gesture:g1', window: Infinity }, i * 1000)
      state = { n: i }
    }
    expect(h.past).toHaveLength(1)
    expect(undo(h, state)!.state.n).toBe(0)
    // The next drag is a new gesture: a second step.
    h = record(h, state, { label: 'Volume change', coalesceKey: 'gesture:g2', window: Infinity }, 50_000)
    expect(h.past).toHaveLength(2)
  })

  it('a key burst merges while keys follow within the window; a pause or another control starts a new step', () => {
    let h: EditHistory<S> = emptyHistory()
    const key = { label: 'Pan change', coalesceKey: 'keys:t1:pan', window: 500 }
    h = record(h, { n: 0 }, key, 0)
    h = record(h, { n: 1 }, key, 400)
    h = record(h, { n: 2 }, key, 800) // 400 ms after the previous key: still the burst
    expect(h.past).toHaveLength(1)
    h = record(h, { n: 3 }, key, 1400) // 600 ms pause
    expect(h.past).toHaveLength(2)
    h = record(h, { n: 4 }, { ...key, coalesceKey: 'keys:t1:volume' }, 1500)
    expect(h.past).toHaveLength(3)
    h = record(h, { n: 5 }, key, 1600) // back on pan, but another step came in between
    expect(h.past.map((e) => e.state.n)).toEqual([0, 3, 4, 5])
  })

  it('a new edit after undo clears redo and never merges into the undone gesture', () => {
    let h: EditHistory<S> = emptyHistory()
    const drag = { label: 'Volume change', coalesceKey: 'gesture:g1', window: Infinity }
    h = record(h, { n: 0 }, { label: 'Add' }, 0)
    h = record(h, { n: 1 }, drag, 1)
    const r = undo(h, { n: 2 })!
    expect(r.state.n).toBe(1)
    expect(redoLabel(r.history)).toBe('Volume change')
    h = record(r.history, r.state, drag, 2)
    expect(redoLabel(h)).toBeNull()
    expect(redo(h, { n: 9 })).toBeNull()
    expect(h.past.map((e) => e.state.n)).toEqual([0, 1])
  })
})
