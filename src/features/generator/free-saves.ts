import { readStored, writeStored } from '../../lib/stored-value.ts'

// Admin › Site Settings › Maximum free songs: how many generated songs a visitor (not signed in)
// may save to the Library per UTC day. A visitor has no server identity, so the count lives on the
// device; an account saves without this limit (its server-side limits are the publishing rules).

const KEY = 'free-song-saves'

interface Saves {
  day: string
  count: number
}

const valid = (raw: unknown): Saves | undefined =>
  typeof raw === 'object' &&
  raw !== null &&
  typeof (raw as Saves).day === 'string' &&
  Number.isInteger((raw as Saves).count) &&
  (raw as Saves).count >= 0
    ? (raw as Saves)
    : undefined

export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10)

/** Saves left today for a visitor under `max`. */
export function freeSavesLeft(max: number, now = new Date()): number {
  const stored = readStored(KEY, valid)
  const used = stored && stored.day === utcDay(now) ? stored.count : 0
  return Math.max(0, max - used)
}

/** Counts one visitor save today. */
export function countFreeSave(now = new Date()): void {
  const stored = readStored(KEY, valid)
  const day = utcDay(now)
  writeStored(KEY, { day, count: stored && stored.day === day ? stored.count + 1 : 1 })
}
