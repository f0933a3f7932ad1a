/**
 * Studio-project changes waiting to reach the signed-in user's account, kept in localStorage per
 * user so a change made while the server is unreachable is sent later, even after a reload.
 * Pure over a Storage (tests pass their own); malformed stored data reads as empty, never throws.
 *
 * Besides the project events (metadata: save, rename, delete) an entry { kind: 'upload', id, due }
 * asks for the project's full copy (mix and audio) to be uploaded, not before `due` (ms since the
 * epoch): each save of the project moves it to the end and later, so a burst of saves is uploaded
 * once, after the last.
 *
 *   pendingChanges(storage, userId) → OutboxEntry[]    oldest first
 *   addPendingChange(storage, userId, event)           appends, folding it into what is pending for
 *                                                      the same project (one save carries the name;
 *                                                      a delete supersedes everything before it)
 *   addPendingUpload(storage, userId, id, due)         (re)queues the project's upload for `due`
 *   nextPendingChange(storage, userId, now)            the oldest entry that may go now, or when
 *                                                      the next upload falls due
 *   dropPendingChange(storage, userId, entry)          after that entry reached the server (a newer
 *                                                      entry queued meanwhile stays)
 *   dropFirstPendingChange(storage, userId)            the same for the oldest entry
 *   isTransientSyncError(error)                        worth retrying (no connection, 5xx, 408,
 *                                                      429, expired session) vs a refusal
 */
import type { ProjectEvent } from './project-events.ts'

export const OUTBOX_KEY = 'cube-studio-project-outbox'

export type UploadEntry = { kind: 'upload'; id: string; due: number }
export type OutboxEntry = ProjectEvent | UploadEntry

type Outbox = Record<string, OutboxEntry[]>

const isString = (v: unknown): v is string => typeof v === 'string'
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function validEvent(v: unknown): v is OutboxEntry {
  if (!v || typeof v !== 'object') return false
  const e = v as Record<string, unknown>
  if (!isString(e.id) || !e.id) return false
  switch (e.kind) {
    case 'saved':
      return isString(e.name) && isNumber(e.trackCount) && isNumber(e.durationSeconds) && isNumber(e.createdAt) && isNumber(e.updatedAt)
    case 'renamed':
      return isString(e.name)
    case 'deleted':
      return true
    case 'upload':
      return isNumber(e.due)
    default:
      return false
  }
}

function read(storage: Storage): Outbox {
  let raw: unknown
  try {
    raw = JSON.parse(storage.getItem(OUTBOX_KEY) ?? '{}')
  } catch {
    return {}
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {}
  const out: Outbox = {}
  for (const [user, list] of Object.entries(raw as Record<string, unknown>)) {
    if (Array.isArray(list)) {
      const events = list.filter(validEvent)
      if (events.length) out[user] = events
    }
  }
  return out
}

function write(storage: Storage, outbox: Outbox): void {
  try {
    if (Object.keys(outbox).length === 0) storage.removeItem(OUTBOX_KEY)
    else storage.setItem(OUTBOX_KEY, JSON.stringify(outbox))
  } catch (error) {
    // Storage full or blocked: the change is still sent now; only its retry is at risk.
    console.warn('studio project outbox not stored', error)
  }
}

export function pendingChanges(storage: Storage, userId: string): OutboxEntry[] {
  return read(storage)[userId] ?? []
}

function put(storage: Storage, outbox: Outbox, userId: string, list: OutboxEntry[]): void {
  if (list.length) outbox[userId] = list
  else delete outbox[userId]
  write(storage, outbox)
}

export function addPendingChange(storage: Storage, userId: string, event: ProjectEvent): void {
  const outbox = read(storage)
  let list = outbox[userId] ?? []
  if (event.kind === 'deleted') list = list.filter((e) => e.id !== event.id).concat(event)
  else if (event.kind === 'saved') list = list.filter((e) => e.id !== event.id || e.kind === 'deleted' || e.kind === 'upload').concat(event)
  else {
    const save = list.find((e): e is Extract<ProjectEvent, { kind: 'saved' }> => e.id === event.id && e.kind === 'saved')
    if (save) list = list.map((e) => (e === save ? { ...save, name: event.name } : e))
    else list = list.filter((e) => !(e.id === event.id && e.kind === 'renamed')).concat(event)
  }
  outbox[userId] = list
  write(storage, outbox)
}

export function addPendingUpload(storage: Storage, userId: string, id: string, due: number): void {
  const outbox = read(storage)
  const list = (outbox[userId] ?? []).filter((e) => !(e.id === id && e.kind === 'upload'))
  put(storage, outbox, userId, list.concat({ kind: 'upload', id, due }))
}

/**
 * The oldest entry that may be sent at `now`: uploads not yet due are passed over (changes of
 * other projects behind them go first); `wakeAt` is when the earliest of those falls due.
 */
export function nextPendingChange(storage: Storage, userId: string, now: number): { entry?: OutboxEntry; wakeAt?: number } {
  let wakeAt: number | undefined
  for (const e of pendingChanges(storage, userId)) {
    if (e.kind !== 'upload' || e.due <= now) return { entry: e }
    wakeAt = Math.min(wakeAt ?? e.due, e.due)
  }
  return { wakeAt }
}

const same = (a: OutboxEntry, b: OutboxEntry) => JSON.stringify(a) === JSON.stringify(b)

export function dropPendingChange(storage: Storage, userId: string, entry: OutboxEntry): void {
  const outbox = read(storage)
  const list = outbox[userId] ?? []
  const at = list.findIndex((e) => same(e, entry))
  if (at >= 0) put(storage, outbox, userId, list.slice(0, at).concat(list.slice(at + 1)))
}

export function dropFirstPendingChange(storage: Storage, userId: string): void {
  const outbox = read(storage)
  put(storage, outbox, userId, (outbox[userId] ?? []).slice(1))
}

export function isTransientSyncError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status !== 'number') return false
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500
}

/** A Storage that lives only as long as the page: where localStorage is blocked, changes are still sent, just not kept over a reload. */
export function memoryStorage(): Storage {
  const map = new Map<string, string>()
  return {
    get length() {
      return map.size
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  }
}
