import type { CommentChange } from '../../backend/comments.ts'
import type { Backend } from '../../domain/session/backend-context.ts'
import { applyChange, emptyThread, threadFrom, type ThreadState } from './thread-model.ts'

// One live thread per song and viewer, however many widgets show it: the Now Playing page draws the
// thread and its markers on the waveform, and each reading it for itself doubled the reads and the
// Realtime channels. The first reader starts the read and the subscription; the last one stops them.
// The server calls are the caller's (the injected backend's), so a test passes fakes.

/** The calls a live thread makes: its read, the viewer's likes, and the Realtime subscription. */
export type ThreadCalls = Pick<Backend['comments'], 'fetchSongComments' | 'fetchLikedIds' | 'subscribeSongComments'>

export type ThreadStatus = 'loading' | 'ready' | 'error'

export interface ThreadSnapshot {
  state: ThreadState
  status: ThreadStatus
  live: boolean
}

export const LOADING_THREAD: ThreadSnapshot = Object.freeze({ state: emptyThread, status: 'loading', live: false })

interface Entry {
  snapshot: ThreadSnapshot
  listeners: Set<() => void>
  stop: () => void
}

const entries = new Map<string, Entry>()
const keyOf = (songId: string, userId: string | undefined) => `${songId}\u0000${userId ?? ''}`

function publish(entry: Entry, next: ThreadSnapshot) {
  if (next === entry.snapshot) return
  entry.snapshot = next
  for (const listener of [...entry.listeners]) listener()
}

function start(calls: ThreadCalls, entry: Entry, songId: string, userId: string | undefined): () => void {
  const { fetchLikedIds, fetchSongComments, subscribeSongComments } = calls
  let cancelled = false
  let pending: CommentChange[] = []
  let loaded = false
  let subscriptions = 0
  const load = () =>
    Promise.all([fetchSongComments(songId), userId ? fetchLikedIds(songId, userId) : Promise.resolve(new Set<string>())]).then(
      ([rows, liked]) => {
        if (cancelled) return
        loaded = true
        const state = pending.reduce((s, c) => applyChange(s, c, userId), threadFrom(rows, liked))
        pending = []
        publish(entry, { ...entry.snapshot, state, status: 'ready' })
      },
      () => {
        if (cancelled || entry.snapshot.status === 'ready') return
        publish(entry, { state: emptyThread, status: 'error', live: false })
      },
    )
  // Subscribe first, so nothing committed between the read and the subscription is missed;
  // changes arriving before the read are applied on top of it.
  const unsubscribe = subscribeSongComments(
    songId,
    (change) => {
      if (cancelled) return
      if (!loaded) pending.push(change)
      else publish(entry, { ...entry.snapshot, state: applyChange(entry.snapshot.state, change, userId) })
    },
    (status) => {
      if (cancelled) return
      publish(entry, { ...entry.snapshot, live: status === 'SUBSCRIBED' })
      // Joined again after the connection dropped: what changed meanwhile was not pushed, so read again.
      if (status === 'SUBSCRIBED' && ++subscriptions > 1) {
        loaded = false
        void load()
      }
    },
  )
  void load()
  return () => {
    cancelled = true
    unsubscribe()
  }
}

/**
 * Follows the thread of `songId` as `userId` sees it; the returned function stops following. The
 * first follower's `calls` read and subscribe; later followers share what they started.
 */
export function followThread(calls: ThreadCalls, songId: string, userId: string | undefined, listener: () => void): () => void {
  const key = keyOf(songId, userId)
  let entry = entries.get(key)
  if (!entry) {
    const created: Entry = { snapshot: LOADING_THREAD, listeners: new Set(), stop: () => {} }
    entries.set(key, created)
    created.stop = start(calls, created, songId, userId)
    entry = created
  }
  const followed = entry
  followed.listeners.add(listener)
  return () => {
    followed.listeners.delete(listener)
    if (followed.listeners.size > 0 || entries.get(key) !== followed) return
    entries.delete(key)
    followed.stop()
  }
}

/** The thread as last read and pushed; LOADING_THREAD while nobody follows it. */
export function threadSnapshot(songId: string, userId: string | undefined): ThreadSnapshot {
  return entries.get(keyOf(songId, userId))?.snapshot ?? LOADING_THREAD
}

/** Applies the answer of the user's own action to every widget showing the thread. */
export function updateThread(songId: string, userId: string | undefined, change: (state: ThreadState) => ThreadState) {
  const entry = entries.get(keyOf(songId, userId))
  if (entry) publish(entry, { ...entry.snapshot, state: change(entry.snapshot.state) })
}
