// Mirrors the studio's saved projects into the signed-in user's account: after a local save,
// rename or delete (src/stores/project-events.ts) the metadata row is upserted, renamed or
// deleted server-side. The local IndexedDB write has already succeeded by then, so a failure here
// only costs the account listing, and the user is told so.
import { toast } from 'sonner'
import { onProjectEvent, type ProjectEvent } from '../stores/project-events.ts'
import { useAccountProjectStore } from '../stores/account-project-store.ts'
import { useSessionStore } from '../stores/session-store.ts'
import { supabase } from './client.ts'
import * as api from './studio-projects.ts'

let queue: Promise<void> = Promise.resolve()

const message = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : String(error))

function reportFailure(error: unknown) {
  console.error('studio project sync failed', error)
  toast.error('Project not updated in your account', {
    id: 'studio-project-sync',
    description: `Your project is safe in this browser, but your account's project list could not be updated: ${message(error)}`,
  })
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
      store().patch(userId, event.id, { name: event.name.trim().slice(0, api.STUDIO_PROJECT_NAME_MAX), updatedAt: new Date().toISOString() })
      return
    case 'deleted':
      await api.deleteStudioProject(supabase(), event.id)
      store().drop(userId, event.id)
  }
}

function enqueue(work: () => Promise<void>): Promise<void> {
  const run = queue.then(work)
  queue = run.catch(reportFailure)
  return run
}

/**
 * Removes a project from the account only (one whose audio lives on another device). Rejects on
 * failure so the caller can say so.
 */
export function removeFromAccount(id: string): Promise<void> {
  const userId = useSessionStore.getState().user?.id
  if (!userId) return Promise.reject(new Error('Log in to manage your account projects.'))
  const run = queue.then(async () => {
    await api.deleteStudioProject(supabase(), id)
    useAccountProjectStore.getState().drop(userId, id)
  })
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
    if (!userId) return
    void enqueue(() => apply(userId, event))
  })
  const follow = (userId: string | null) => {
    if (!userId) useAccountProjectStore.getState().clear()
    else if (useAccountProjectStore.getState().userId !== userId) void refreshAccountProjects()
  }
  follow(useSessionStore.getState().user?.id ?? null)
  useSessionStore.subscribe((state, prev) => {
    if (state.user?.id !== prev.user?.id) follow(state.user?.id ?? null)
  })
}
