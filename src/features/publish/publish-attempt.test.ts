import { describe, expect, it } from 'vitest'
import { publishAttempt } from './publish-attempt.ts'

// The client half of publishing once per attempt (the server half: tests/backend/publish-idempotency.test.ts).

const deferred = <T>() => {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('publishAttempt', () => {
  it('a double click while the first try runs joins it: one request, one key, one answer', async () => {
    const attempt = publishAttempt<string>(() => 'attempt-key-1')
    const pending = deferred<string>()
    const keys: string[] = []
    const task = (key: string) => {
      keys.push(key)
      return pending.promise
    }
    const first = attempt.run(task)
    expect(attempt.busy).toBe(true)
    const second = attempt.run(task)
    pending.resolve('song-1')
    expect(await Promise.all([first, second])).toEqual(['song-1', 'song-1'])
    expect(keys).toEqual(['attempt-key-1'])
    expect(attempt.busy).toBe(false)
  })

  it('a retry after a failure sends the same key again', async () => {
    const attempt = publishAttempt<string>(() => 'attempt-key-2')
    const keys: string[] = []
    await expect(attempt.run(async (key) => (keys.push(key), Promise.reject(new Error('network'))))).rejects.toThrow('network')
    expect(attempt.busy).toBe(false)
    expect(await attempt.run(async (key) => (keys.push(key), 'song-2'))).toBe('song-2')
    expect(keys).toEqual(['attempt-key-2', 'attempt-key-2'])
  })

  it('each dialog is a new attempt with its own key', () => {
    expect(publishAttempt().key).not.toBe(publishAttempt().key)
    expect(publishAttempt().key.length).toBeGreaterThanOrEqual(8)
  })
})
