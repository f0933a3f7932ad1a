import { describe, expect, it } from 'vitest'
import {
  addPendingChange,
  addPendingUpload,
  dropFirstPendingChange,
  dropPendingChange,
  isTransientSyncError,
  nextPendingChange,
  OUTBOX_KEY,
  pendingChanges,
} from './studio-project-outbox.ts'
import type { ProjectEvent } from './project-events.ts'

class MemoryStorage implements Storage {
  private map = new Map<string, string>()
  get length() {
    return this.map.size
  }
  clear() {
    this.map.clear()
  }
  getItem(key: string) {
    return this.map.get(key) ?? null
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null
  }
  removeItem(key: string) {
    this.map.delete(key)
  }
  setItem(key: string, value: string) {
    this.map.set(key, value)
  }
}

const saved = (id: string, name = 'Project 1'): ProjectEvent => ({
  kind: 'saved',
  id,
  name,
  trackCount: 2,
  durationSeconds: 1.5,
  createdAt: 1,
  updatedAt: 2,
})

describe('studio project outbox', () => {
  it('keeps changes per user, oldest first, across reads (it is only storage)', () => {
    const s = new MemoryStorage()
    addPendingChange(s, 'alice', saved('p1'))
    addPendingChange(s, 'alice', saved('p2'))
    addPendingChange(s, 'bob', { kind: 'deleted', id: 'p9' })
    expect(pendingChanges(s, 'alice').map((e) => e.id)).toEqual(['p1', 'p2'])
    expect(pendingChanges(s, 'bob')).toEqual([{ kind: 'deleted', id: 'p9' }])
    dropFirstPendingChange(s, 'alice')
    expect(pendingChanges(s, 'alice').map((e) => e.id)).toEqual(['p2'])
    dropFirstPendingChange(s, 'alice')
    dropFirstPendingChange(s, 'bob')
    expect(s.getItem(OUTBOX_KEY)).toBeNull()
  })

  it('folds a rename into a pending save, a later save over earlier ones, and a delete over everything', () => {
    const s = new MemoryStorage()
    addPendingChange(s, 'u', saved('p1'))
    addPendingChange(s, 'u', { kind: 'renamed', id: 'p1', name: 'Neon Sketch' })
    expect(pendingChanges(s, 'u')).toEqual([{ ...saved('p1'), name: 'Neon Sketch' }])

    addPendingChange(s, 'u', { kind: 'renamed', id: 'p2', name: 'A' })
    addPendingChange(s, 'u', { kind: 'renamed', id: 'p2', name: 'B' })
    expect(pendingChanges(s, 'u').filter((e) => e.id === 'p2')).toEqual([{ kind: 'renamed', id: 'p2', name: 'B' }])

    addPendingChange(s, 'u', saved('p1', 'Again'))
    expect(pendingChanges(s, 'u').filter((e) => e.id === 'p1')).toEqual([saved('p1', 'Again')])

    addPendingChange(s, 'u', { kind: 'deleted', id: 'p1' })
    expect(pendingChanges(s, 'u')).toEqual([
      { kind: 'renamed', id: 'p2', name: 'B' },
      { kind: 'deleted', id: 'p1' },
    ])
  })

  it('keeps one upload per project, moved after each save; a delete drops it; one not due lets the others pass', () => {
    const s = new MemoryStorage()
    addPendingChange(s, 'u', saved('p1'))
    addPendingUpload(s, 'u', 'p1', 100)
    addPendingChange(s, 'u', saved('p1', 'Again'))
    addPendingUpload(s, 'u', 'p1', 200)
    expect(pendingChanges(s, 'u')).toEqual([saved('p1', 'Again'), { kind: 'upload', id: 'p1', due: 200 }])
    dropFirstPendingChange(s, 'u')
    addPendingChange(s, 'u', { kind: 'renamed', id: 'p2', name: 'B' })
    expect(nextPendingChange(s, 'u', 150)).toEqual({ entry: { kind: 'renamed', id: 'p2', name: 'B' } })
    dropPendingChange(s, 'u', { kind: 'renamed', id: 'p2', name: 'B' })
    expect(nextPendingChange(s, 'u', 150)).toEqual({ wakeAt: 200 })
    expect(nextPendingChange(s, 'u', 200)).toEqual({ entry: { kind: 'upload', id: 'p1', due: 200 } })
    // Dropping an entry that was replaced meanwhile leaves the newer one.
    dropPendingChange(s, 'u', { kind: 'upload', id: 'p1', due: 100 })
    expect(pendingChanges(s, 'u')).toHaveLength(1)
    addPendingChange(s, 'u', { kind: 'deleted', id: 'p1' })
    expect(pendingChanges(s, 'u')).toEqual([{ kind: 'deleted', id: 'p1' }])
    s.setItem(
      OUTBOX_KEY,
      JSON.stringify({
        u: [
          { kind: 'upload', id: 'p3' },
          { kind: 'upload', id: 'p4', due: 5 },
        ],
      }),
    )
    expect(pendingChanges(s, 'u')).toEqual([{ kind: 'upload', id: 'p4', due: 5 }])
  })

  it('reads malformed stored data as empty and drops malformed entries, without throwing', () => {
    const s = new MemoryStorage()
    for (const bad of ['not json', '[]', '"x"', 'null', '{"u": 5}']) {
      s.setItem(OUTBOX_KEY, bad)
      expect(pendingChanges(s, 'u')).toEqual([])
    }
    s.setItem(
      OUTBOX_KEY,
      JSON.stringify({
        u: [
          { kind: 'saved', id: 'p1' },
          { kind: 'zapped', id: 'p2' },
          { kind: 'deleted', id: '' },
          { kind: 'renamed', id: 'p3', name: 'ok' },
          null,
        ],
      }),
    )
    expect(pendingChanges(s, 'u')).toEqual([{ kind: 'renamed', id: 'p3', name: 'ok' }])
    // Writing over a malformed store repairs it.
    s.setItem(OUTBOX_KEY, '{broken')
    addPendingChange(s, 'u', saved('p4'))
    expect(pendingChanges(s, 'u')).toEqual([saved('p4')])
  })

  it('survives a storage that refuses writes (the change is then only sent, not kept)', () => {
    const s = new MemoryStorage()
    s.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError')
    }
    expect(() => addPendingChange(s, 'u', saved('p1'))).not.toThrow()
    expect(pendingChanges(s, 'u')).toEqual([])
  })

  it('retries a lost connection, a server error, a timeout, rate limiting or an expired session; not a refusal', () => {
    for (const status of [0, 401, 408, 429, 500, 502, 503]) expect(isTransientSyncError({ message: 'x', code: '', status })).toBe(true)
    for (const status of [400, 403, 404, 409, 422]) expect(isTransientSyncError({ message: 'x', code: '42501', status })).toBe(false)
    expect(isTransientSyncError(new Error('A project needs a name.'))).toBe(false)
    expect(isTransientSyncError(null)).toBe(false)
  })
})
