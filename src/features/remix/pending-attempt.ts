/**
 * The burn attempt in progress, kept in localStorage (shared by the user's tabs, kept across a
 * reload) until its remix is produced or refunded. A Create Remix of the same source and settings
 * in another tab reuses its key, and a reload resumes it: the server answers a known key without
 * a second debit, so one remix is paid once.
 */
import { create } from 'zustand'
import type { RemixSettings } from '../../engine/remix/remix-settings.ts'

export const PENDING_KEY = 'cube-remix-attempt'

export interface PendingAttempt {
  userId: string
  key: string
  source: { ref: string; title: string; audioUrl?: string }
  settings: RemixSettings
  loop: { start: number; end: number } | null
}

export function readPending(userId: string | undefined): PendingAttempt | null {
  if (!userId) return null
  try {
    const raw = JSON.parse(localStorage.getItem(PENDING_KEY) ?? 'null') as PendingAttempt | null
    return raw && raw.userId === userId && typeof raw.key === 'string' && raw.source && typeof raw.source.ref === 'string' ? raw : null
  } catch {
    return null
  }
}

export function writePending(p: PendingAttempt): void {
  localStorage.setItem(PENDING_KEY, JSON.stringify(p))
}

export function clearPending(key: string | null): void {
  const raw = localStorage.getItem(PENDING_KEY)
  if (!raw) return
  try {
    if (key === null || (JSON.parse(raw) as PendingAttempt).key === key) localStorage.removeItem(PENDING_KEY)
  } catch {
    localStorage.removeItem(PENDING_KEY)
  }
}

/** Same remix = same source and same settings: such a Create Remix continues the pending attempt. */
export function sameRemix(p: PendingAttempt, sourceRef: string, settings: RemixSettings): boolean {
  return p.source.ref === sourceRef && JSON.stringify(p.settings) === JSON.stringify(settings)
}

/** What the page shows: the signed-in user's pending attempt, re-read after every change. */
export const usePendingAttempt = create<{ pending: PendingAttempt | null; refresh: (userId: string | undefined) => void }>()((set) => ({
  pending: null,
  refresh: (userId) => set({ pending: readPending(userId) }),
}))
