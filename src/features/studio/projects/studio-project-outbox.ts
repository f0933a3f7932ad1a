/**
 * Studio-project changes waiting to reach the signed-in user's account, kept in localStorage per
 * user so a change made while the server is unreachable is sent later, even after a reload.
 * Pure over a Storage (tests pass their own); malformed stored data reads as empty, never throws.
 *
 *   pendingChanges(storage, userId) → ProjectEvent[]   oldest first
 *   addPendingChange(storage, userId, event)           appends, folding it into what is pending for
 *                                                      the same project (one save carries the name;
 *                                                      a delete supersedes everything before it)
 *   dropFirstPendingChange(storage, userId)            after the oldest change reached the server
 *   isTransientSyncError(error)                        worth retrying (no connection, 5xx, 408,
 *                                                      429, expired session) vs a refusal
 */
import type { ProjectEvent } from './project-events.ts'

export const OUTBOX_KEY = 'cube-studio-project-outbox'

type Outbox = Record<string, ProjectEvent[]>

const isString = (v: unknown): v is string => typeof v === 'string'
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function validEvent(v: unknown): v is ProjectEvent {
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

export function pendingChanges(storage: Storage, userId: string): ProjectEvent[] {
  return read(storage)[userId] ?? []
}

export function addPendingChange(storage: Storage, userId: string, event: ProjectEvent): void {
  const outbox = read(storage)
  let list = outbox[userId] ?? []
  if (event.kind === 'deleted') list = list.filter((e) => e.id !== event.id).concat(event)
  else if (event.kind === 'saved') list = list.filter((e) => e.id !== event.id || e.kind === 'deleted').concat(event)
  else {
    const save = list.find((e): e is Extract<ProjectEvent, { kind: 'saved' }> => e.id === event.id && e.kind === 'saved')
    if (save) list = list.map((e) => (e === save ? { ...save, name: event.name } : e))
    else list = list.filter((e) => !(e.id === event.id && e.kind === 'renamed')).concat(event)
  }
  outbox[userId] = list
  write(storage, outbox)
}

export function dropFirstPendingChange(storage: Storage, userId: string): void {
  const outbox = read(storage)
  const list = (outbox[userId] ?? []).slice(1)
  if (list.length) outbox[userId] = list
  else delete outbox[userId]
  write(storage, outbox)
}

export function isTransientSyncError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status !== 'number') return false
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500
}
