import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createOutboxSender, RETRY_MS } from './outbox-sender.ts'
import { addPendingChange, addPendingUpload, memoryStorage, pendingChanges, type OutboxEntry } from './studio-project-outbox.ts'
import type { ProjectEvent } from './project-events.ts'

const DEBOUNCE = 1500
const saved = (id: string, updatedAt = 2): ProjectEvent => ({
  kind: 'saved',
  id,
  name: 'Project 1',
  trackCount: 1,
  durationSeconds: 1,
  createdAt: 1,
  updatedAt,
})
const offline = () => Object.assign(new Error('Failed to fetch'), { status: 0 })
const refused = () => Object.assign(new Error('The upload would exceed your storage quota'), { status: 413 })

/** A sender over a memory outbox whose server answers with `answer` and records what it got. */
function harness(answer: (entry: OutboxEntry) => Error | null = () => null) {
  const storage = memoryStorage()
  const sent: string[] = []
  const events: string[] = []
  const sender = createOutboxSender({
    storage,
    currentUser: () => 'u',
    now: () => Date.now(),
    send: async (_user, entry) => {
      const error = answer(entry)
      if (error) throw error
      sent.push(`${entry.kind}:${entry.id}`)
    },
    onWaiting: (e) => events.push(`waiting:${e.id}`),
    onRefused: (e, error) => events.push(`refused:${e.id}:${(error as Error).message}`),
    onRecovered: () => events.push('recovered'),
  })
  /** What the sync does on a save: the metadata now, the upload after the debounce. */
  const save = (id: string, updatedAt = 2) => {
    addPendingChange(storage, 'u', saved(id, updatedAt))
    addPendingUpload(storage, 'u', id, Date.now() + DEBOUNCE)
    return sender.flush()
  }
  return { storage, sent, events, sender, save }
}

describe('studio project outbox sender', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => vi.useRealTimers())

  it('sends the metadata at once and uploads once, after the last save of a burst', async () => {
    const h = harness()
    await h.save('p1', 2)
    expect(h.sent).toEqual(['saved:p1'])
    await vi.advanceTimersByTimeAsync(1000)
    await h.save('p1', 3)
    await vi.advanceTimersByTimeAsync(1000)
    // 2 s after the first save, but only 1 s after the second: nothing uploaded yet.
    expect(h.sent).toEqual(['saved:p1', 'saved:p1'])
    await vi.advanceTimersByTimeAsync(600)
    await h.sender.idle()
    expect(h.sent).toEqual(['saved:p1', 'saved:p1', 'upload:p1'])
    expect(pendingChanges(h.storage, 'u')).toEqual([])
  })

  it('lets other changes pass an upload that is not due yet', async () => {
    const h = harness()
    await h.save('p1')
    addPendingChange(h.storage, 'u', { kind: 'renamed', id: 'p2', name: 'Other' })
    await h.sender.flush()
    expect(h.sent).toEqual(['saved:p1', 'renamed:p2'])
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await h.sender.idle()
    expect(h.sent).toEqual(['saved:p1', 'renamed:p2', 'upload:p1'])
  })

  it('keeps an upload that cannot reach the server and retries it with backoff until it goes through', async () => {
    let down = true
    const h = harness((e) => (down && e.kind === 'upload' ? offline() : null))
    await h.save('p1')
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await h.sender.idle()
    expect(h.events).toEqual(['waiting:p1'])
    expect(h.sender.failures()).toBe(1)
    expect(pendingChanges(h.storage, 'u').map((e) => e.kind)).toEqual(['upload'])
    // Still down at the first retry: waiting is said once, the next retry is later.
    await vi.advanceTimersByTimeAsync(RETRY_MS[0])
    await h.sender.idle()
    expect(h.sender.failures()).toBe(2)
    expect(h.events).toEqual(['waiting:p1'])
    down = false
    await vi.advanceTimersByTimeAsync(RETRY_MS[1] - 1)
    expect(h.sent).toEqual(['saved:p1'])
    await vi.advanceTimersByTimeAsync(1)
    await h.sender.idle()
    expect(h.sent).toEqual(['saved:p1', 'upload:p1'])
    expect(h.events).toEqual(['waiting:p1', 'recovered'])
    expect(h.sender.failures()).toBe(0)
    expect(pendingChanges(h.storage, 'u')).toEqual([])
  })

  it('survives a reload: a new sender over the same outbox sends what the last one left', async () => {
    const first = harness(() => offline())
    await first.save('p1')
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await first.sender.idle()
    first.sender.stop()
    expect(pendingChanges(first.storage, 'u').map((e) => `${e.kind}:${e.id}`)).toEqual(['saved:p1', 'upload:p1'])
    const sent: string[] = []
    const second = createOutboxSender({
      storage: first.storage,
      currentUser: () => 'u',
      send: async (_u, e) => void sent.push(`${e.kind}:${e.id}`),
    })
    await second.flush()
    expect(sent).toEqual(['saved:p1', 'upload:p1'])
    expect(pendingChanges(first.storage, 'u')).toEqual([])
  })

  it('drops a refused upload, says why, and goes on with the rest', async () => {
    const h = harness((e) => (e.kind === 'upload' && e.id === 'p1' ? refused() : null))
    await h.save('p1')
    await h.save('p2')
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await h.sender.idle()
    expect(h.events).toEqual(['refused:p1:The upload would exceed your storage quota'])
    expect(h.sent).toEqual(['saved:p1', 'saved:p2', 'upload:p2'])
    expect(pendingChanges(h.storage, 'u')).toEqual([])
  })

  it('a save during an upload queues another upload instead of being lost', async () => {
    const storage = memoryStorage()
    let release: () => void = () => undefined
    const sent: string[] = []
    const sender = createOutboxSender({
      storage,
      currentUser: () => 'u',
      send: async (_u, e) => {
        if (e.kind === 'upload' && sent.length === 1) await new Promise<void>((r) => (release = r))
        sent.push(`${e.kind}:${e.id}`)
      },
    })
    addPendingChange(storage, 'u', saved('p1'))
    addPendingUpload(storage, 'u', 'p1', Date.now())
    void sender.flush()
    await vi.advanceTimersByTimeAsync(0)
    // The upload is under way; the creator saves again.
    addPendingChange(storage, 'u', saved('p1', 5))
    addPendingUpload(storage, 'u', 'p1', Date.now() + DEBOUNCE)
    release()
    await sender.idle()
    // The new save went on at once; its upload waits for its own time.
    expect(sent).toEqual(['saved:p1', 'upload:p1', 'saved:p1'])
    expect(pendingChanges(storage, 'u').map((e) => e.kind)).toEqual(['upload'])
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await sender.idle()
    expect(sent).toEqual(['saved:p1', 'upload:p1', 'saved:p1', 'upload:p1'])
    expect(pendingChanges(storage, 'u')).toEqual([])
  })

  it('sends nothing for a user who signed out', async () => {
    let user: string | null = 'u'
    const storage = memoryStorage()
    const sent: string[] = []
    const sender = createOutboxSender({ storage, currentUser: () => user, send: async (_u, e) => void sent.push(e.id) })
    addPendingUpload(storage, 'u', 'p1', Date.now() + DEBOUNCE)
    await sender.flush()
    user = null
    await vi.advanceTimersByTimeAsync(DEBOUNCE)
    await sender.idle()
    expect(sent).toEqual([])
    expect(pendingChanges(storage, 'u')).toHaveLength(1)
  })
})
