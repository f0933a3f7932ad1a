// Mirrors the studio's saved projects into the signed-in user's account: after a local save,
// rename or delete (project-events.ts) the metadata row is upserted, renamed or
// deleted server-side. The local IndexedDB write has already succeeded by then, so a failure here
// only costs the account listing. Every change goes through a per-user outbox in localStorage
// (studio-project-outbox.ts), sent oldest first: when the server cannot be reached the change
// waits there and is sent again on the next change, when the browser comes back online, on a
// timer (5 s, 15 s, 1 min, then every 5 min), and after a reload or the next sign-in. A refusal
// (which retrying cannot fix) is dropped and reported.
import { notify } from '../../../lib/notify.ts'
import { addPendingChange, dropFirstPendingChange, isTransientSyncError, pendingChanges } from './studio-project-outbox.ts'
import { onProjectEvent, type ProjectEvent } from './project-events.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { supabase } from '../../../backend/client.ts'
import * as api from '../../../backend/studio-projects.ts'
import { removeProjectCopy } from './studio-project-copies.ts'
import { errorMessage } from '../../../lib/error-message.ts'

let queue: Promise<void> = Promise.resolve()

const TOAST_ID = 'studio-project-sync'
const RETRY_MS = [5_000, 15_000, 60_000, 300_000] as const

function reportWaiting(error: unknown) {
  console.warn('studio project sync: server unreachable, will retry', error)
  notify.error('Project not updated in your account', {
    id: TOAST_ID,
    description: "Your project is safe in this browser. Your account's project list will be updated as soon as the server can be reached.",
  })
}

function reportRefused(error: unknown) {
  console.error('studio project sync refused', error)
  notify.error('Project not updated in your account', {
    id: TOAST_ID,
    description: `Your project is safe in this browser, but the server refused to list it in your account: ${errorMessage(error)}`,
  })
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** Rereads the signed-in user's project list from the server into the account store. */
export async function refreshAccountProjects(): Promise<void> {
  const userId = useSessionStore.getState().user?.id
  if (!userId) return
  useAccountProjectStore.getState().setLoading(userId)
  try {
    // After the changes already on their way, so the list cannot be older than what was saved.
    await queue
    const projects = await api.listStudioProjects(supabase())
    useAccountProjectStore.getState().setProjects(userId, projects)
  } catch (error) {
    console.warn('studio project list failed', error)
    useAccountProjectStore.getState().setError(userId)
  }
}

async function apply(userId: string, event: ProjectEvent) {
  const store = useAccountProjectStore.getState
  switch (event.kind) {
    case 'saved': {
      const { kind: _kind, ...meta } = event
      store().put(userId, await api.upsertStudioProject(supabase(), meta))
      return
    }
    case 'renamed':
      await api.renameStudioProject(supabase(), event.id, event.name)
      store().patch(userId, event.id, {
        name: event.name.trim().slice(0, api.STUDIO_PROJECT_NAME_MAX),
        updatedAt: new Date().toISOString(),
      })
      return
    case 'deleted':
      await api.deleteStudioProject(supabase(), event.id)
      store().drop(userId, event.id)
      // Its full copy too, if one was uploaded; a leftover file is only storage, never a listing.
      await removeProjectCopy(supabase(), userId, event.id).catch((error: unknown) => console.warn('project copy not removed', error))
  }
}

let retryTimer: ReturnType<typeof setTimeout> | null = null
let failures = 0

function scheduleRetry() {
  if (retryTimer) clearTimeout(retryTimer)
  const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!
  failures++
  retryTimer = setTimeout(() => {
    retryTimer = null
    flush()
  }, delay)
}

/** Sends the signed-in user's pending changes, oldest first, until done or the server is unreachable. */
async function sendPending(userId: string) {
  const store = storage()
  if (!store) return
  for (;;) {
    if (useSessionStore.getState().user?.id !== userId) return
    const next = pendingChanges(store, userId)[0]
    if (!next) break
    try {
      await apply(userId, next)
    } catch (error) {
      if (isTransientSyncError(error)) {
        if (failures === 0) reportWaiting(error)
        scheduleRetry()
        return
      }
      dropFirstPendingChange(store, userId)
      reportRefused(error)
      continue
    }
    dropFirstPendingChange(store, userId)
  }
  if (failures > 0)
    notify.success('Account projects updated', {
      id: TOAST_ID,
      description: 'Changes made while the server was out of reach have reached your account.',
    })
  failures = 0
  if (retryTimer) clearTimeout(retryTimer)
  retryTimer = null
}

/** Queues a send of whatever is pending for the signed-in user (after the work already queued). */
function flush(): Promise<void> {
  const userId = useSessionStore.getState().user?.id
  if (!userId) return queue
  queue = queue.then(() => sendPending(userId)).catch((error: unknown) => console.error('studio project sync failed', error))
  return queue
}

/**
 * Removes a project from the account only (one whose audio lives on another device). Rejects on
 * failure so the caller can say so.
 */
export function removeFromAccount(id: string): Promise<void> {
  const userId = useSessionStore.getState().user?.id
  if (!userId) return Promise.reject(new Error('Log in to manage your account projects.'))
  // The same removal as a local delete's, but outside the outbox: the caller reports a failure.
  const run = queue.then(() => apply(userId, { kind: 'deleted', id }))
  queue = run.catch(() => undefined)
  return run
}

/** Resolves once every change made so far has reached the server (or failed). */
export function studioProjectSyncIdle(): Promise<void> {
  return queue
}

let started = false

export function startStudioProjectSync(): void {
  if (started) return
  started = true
  onProjectEvent((event) => {
    const userId = useSessionStore.getState().user?.id
    const store = storage()
    if (!userId) return
    if (store) addPendingChange(store, userId, event)
    // Without storage the change is still sent now, just not retried after a reload.
    else queue = queue.then(() => apply(userId, event)).catch(reportWaiting)
    void flush()
  })
  window.addEventListener('online', () => void flush())
  const follow = (userId: string | null) => {
    if (!userId) useAccountProjectStore.getState().clear()
    else {
      void flush()
      if (useAccountProjectStore.getState().userId !== userId) void refreshAccountProjects()
    }
  }
  follow(useSessionStore.getState().user?.id ?? null)
  useSessionStore.subscribe((state, prev) => {
    if (state.user?.id !== prev.user?.id) follow(state.user?.id ?? null)
  })
}
