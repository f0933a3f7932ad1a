/**
 * Queue rules as pure functions over (queue, current index); the player store applies them.
 * No React, no audio: unit-tested in Node.
 */
import type { Song } from '../lib/catalogue/song.ts'

/** Previous restarts the current song when more than this many seconds have played. */
export const PREVIOUS_RESTART_THRESHOLD_S = 3

export const indexOfSong = (queue: readonly Song[], id: string | undefined): number => (id ? queue.findIndex((s) => s.id === id) : -1)

export const isQueued = (queue: readonly Song[], id: string): boolean => queue.some((s) => s.id === id)

/** Next wraps from the last song to the first. -1 for an empty queue. */
export function nextIndex(length: number, current: number): number {
  if (length === 0) return -1
  return current < 0 ? 0 : (current + 1) % length
}

export type PreviousAction = { kind: 'restart' } | { kind: 'go'; index: number } | { kind: 'none' }

/** Previous restarts after more than 3 s, otherwise goes back one (wrapping to the last). */
export function previousAction(length: number, current: number, positionS: number): PreviousAction {
  if (length === 0) return { kind: 'none' }
  if (current >= 0 && positionS > PREVIOUS_RESTART_THRESHOLD_S) return { kind: 'restart' }
  if (current < 0) return { kind: 'go', index: length - 1 }
  return { kind: 'go', index: (current - 1 + length) % length }
}

/**
 * Removing a song. When it is the current one, the song that followed it becomes current
 * (wrapping to the first); an emptied queue has no current song.
 */
export function removeFromQueue(
  queue: readonly Song[],
  currentId: string | undefined,
  removeId: string,
): { queue: Song[]; current: Song | null; currentChanged: boolean } {
  const at = indexOfSong(queue, removeId)
  const currentSong = queue[indexOfSong(queue, currentId)] ?? null
  if (at < 0) return { queue: [...queue], current: currentSong, currentChanged: false }
  const next = queue.filter((_, i) => i !== at)
  if (removeId !== currentId) return { queue: next, current: currentSong, currentChanged: false }
  if (next.length === 0) return { queue: next, current: null, currentChanged: true }
  return { queue: next, current: next[at % next.length]!, currentChanged: true }
}
