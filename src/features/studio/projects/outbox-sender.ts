/**
 * Sends a user's studio-project outbox (studio-project-outbox.ts) to the server, one entry at a
 * time, oldest first, each once it is due. What it sends and what it tells the user are injected
 * (studio-project-sync.ts wires the app's), so tests drive it with a fake clock.
 *
 * - An entry that reached the server leaves the outbox; one that a newer entry replaced meanwhile
 *   (a save during an upload) stays for its own turn.
 * - A lost connection or a server hiccup (isTransientSyncError) keeps the entry and tries again
 *   after RETRY_MS (5 s, 15 s, 1 min, then every 5 min), or at once on flush() (a new change, the
 *   browser coming back online, a reload, the next sign-in).
 * - A refusal, which retrying cannot fix, drops the entry and is reported.
 * - Uploads not yet due wait for their time without holding back the entries behind them.
 */
import { dropPendingChange, isTransientSyncError, nextPendingChange, type OutboxEntry } from './studio-project-outbox.ts'

export const RETRY_MS = [5_000, 15_000, 60_000, 300_000] as const

export interface OutboxSenderOptions {
  storage: Storage
  /** The signed-in user now: sending stops when it changes. */
  currentUser: () => string | null
  send: (userId: string, entry: OutboxEntry) => Promise<void>
  now?: () => number
  /** The first transient failure of a run of them. */
  onWaiting?: (entry: OutboxEntry, error: unknown) => void
  onRefused?: (entry: OutboxEntry, error: unknown) => void
  onSent?: (entry: OutboxEntry) => void
  /** Everything that waited for the server has reached it. */
  onRecovered?: () => void
}

export interface OutboxSender {
  /** Queues a send of what is pending for the signed-in user, after the work already queued. */
  flush: () => Promise<void>
  /** Runs `job` after the work already queued; its failure is the caller's. */
  after: <T>(job: () => Promise<T>) => Promise<T>
  /** Resolves once the work queued so far has finished. */
  idle: () => Promise<void>
  /** Failures in a row since the last success (0: not waiting). */
  failures: () => number
  stop: () => void
}

export function createOutboxSender(options: OutboxSenderOptions): OutboxSender {
  const { storage, currentUser, send } = options
  const now = options.now ?? Date.now
  let queue: Promise<void> = Promise.resolve()
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let wakeTimer: ReturnType<typeof setTimeout> | null = null
  let wakeAt = Number.POSITIVE_INFINITY
  let stopped = false

  const clearRetry = () => {
    if (retryTimer) clearTimeout(retryTimer)
    retryTimer = null
  }
  const scheduleRetry = () => {
    clearRetry()
    const delay = RETRY_MS[Math.min(failures - 1, RETRY_MS.length - 1)]!
    retryTimer = setTimeout(() => {
      retryTimer = null
      void flush()
    }, delay)
  }
  // One timer for the earliest upload that is not due yet.
  const wakeUpAt = (at: number) => {
    if (wakeTimer && at >= wakeAt) return
    if (wakeTimer) clearTimeout(wakeTimer)
    wakeAt = at
    wakeTimer = setTimeout(
      () => {
        wakeTimer = null
        wakeAt = Number.POSITIVE_INFINITY
        void flush()
      },
      Math.max(0, at - now()),
    )
  }

  async function sendPending(userId: string) {
    for (;;) {
      if (stopped || currentUser() !== userId) return
      const { entry, wakeAt: due } = nextPendingChange(storage, userId, now())
      if (!entry) {
        if (due !== undefined) wakeUpAt(due)
        break
      }
      try {
        await send(userId, entry)
      } catch (error) {
        if (isTransientSyncError(error)) {
          if (failures === 0) options.onWaiting?.(entry, error)
          failures++
          scheduleRetry()
          return
        }
        dropPendingChange(storage, userId, entry)
        options.onRefused?.(entry, error)
        continue
      }
      dropPendingChange(storage, userId, entry)
      options.onSent?.(entry)
    }
    if (failures > 0) options.onRecovered?.()
    failures = 0
    clearRetry()
  }

  function flush(): Promise<void> {
    const userId = currentUser()
    if (!userId || stopped) return queue
    queue = queue.then(() => sendPending(userId)).catch((error: unknown) => console.error('studio project sync failed', error))
    return queue
  }

  return {
    flush,
    after: (job) => {
      const run = queue.then(job)
      queue = run.then(
        () => undefined,
        () => undefined,
      )
      return run
    },
    idle: () => queue,
    failures: () => failures,
    stop: () => {
      stopped = true
      clearRetry()
      if (wakeTimer) clearTimeout(wakeTimer)
      wakeTimer = null
    },
  }
}
