import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openSharedLink, shownFor, type PageShown } from './shared-link.ts'

// The shared page redeems its visit only after it has really been shown: time in a background tab
// does not count, and a page never shown before the visit expires redeems nothing.

function fakePage(visible: boolean) {
  const listeners = new Set<() => void>()
  const page: PageShown & { show(v: boolean): void } = {
    visible: () => visible,
    onChange(cb) {
      listeners.add(cb)
      return () => listeners.delete(cb)
    },
    show(v) {
      visible = v
      for (const cb of [...listeners]) cb()
    },
  }
  return page
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('shownFor', () => {
  it('counts only the time the page is visible', async () => {
    const page = fakePage(false)
    let done: boolean | undefined
    void shownFor(2000, 60_000, page).then((r) => (done = r))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(done).toBeUndefined()
    page.show(true)
    await vi.advanceTimersByTimeAsync(1500)
    page.show(false)
    await vi.advanceTimersByTimeAsync(5000)
    expect(done).toBeUndefined()
    page.show(true)
    await vi.advanceTimersByTimeAsync(499)
    expect(done).toBeUndefined()
    await vi.advanceTimersByTimeAsync(2)
    expect(done).toBe(true)
  })

  it('answers false when the visit expires before the page was shown long enough', async () => {
    const page = fakePage(false)
    let done: boolean | undefined
    void shownFor(2000, 30_000, page).then((r) => (done = r))
    await vi.advanceTimersByTimeAsync(30_001)
    expect(done).toBe(false)
  })
})

describe('openSharedLink', () => {
  it('begins the visit at once, redeems it only after the page was shown, once per token', async () => {
    const page = fakePage(false)
    const calls = {
      begin: vi.fn(async () => ({ nonce: 'n1', redeem_after_ms: 2000, expires_in_ms: 900_000 })),
      open: vi.fn(async () => ({ credited: true, reason: 'credited' })),
    }
    const token = 'ab'.repeat(32)
    const result = openSharedLink(token, calls, page)
    expect(await openSharedLink(token, calls, page)).toBeNull()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls.begin).toHaveBeenCalledTimes(1)
    expect(calls.open).not.toHaveBeenCalled()
    page.show(true)
    await vi.advanceTimersByTimeAsync(2300)
    expect(await result).toEqual({ credited: true, reason: 'credited' })
    expect(calls.open.mock.calls).toEqual([[token, 'n1']])
  })

  it('a page never shown before the visit expires redeems nothing', async () => {
    const calls = {
      begin: vi.fn(async () => ({ nonce: 'n2', redeem_after_ms: 2000, expires_in_ms: 10_000 })),
      open: vi.fn(async () => ({ credited: true, reason: 'credited' })),
    }
    const result = openSharedLink('cd'.repeat(32), calls, fakePage(false))
    await vi.advanceTimersByTimeAsync(10_001)
    expect(await result).toBeNull()
    expect(calls.open).not.toHaveBeenCalled()
  })
})
