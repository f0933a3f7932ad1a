// Keeps the signed-in creator's studio projects in their account, in the background: after a
// local save, rename or delete (project-events.ts) the metadata row is upserted, renamed or
// deleted server-side, and after a save or rename the project's full copy (mix and audio,
// studio-project-copies.ts) is uploaded, UPLOAD_DEBOUNCE_MS after the last of a burst of them.
// The local IndexedDB write has already succeeded by then, so a failure here never loses work.
// Every change goes through a per-user outbox in localStorage (studio-project-outbox.ts), sent by
// outbox-sender.ts: what cannot reach the server waits and is retried (the browser coming back
// online, a timer, a reload, the next sign-in); a refusal is dropped and reported. Each upload's
// progress is in account-copy-status.ts. An open project of the account is also saved by itself
// after each pause in editing (account-autosave.ts). Visitors' projects stay in their browser only.
import { notify } from '../../../lib/notify.ts'
import {
  addPendingChange,
  addPendingUpload,
  memoryStorage,
  pendingChanges,
  type OutboxEntry,
  type UploadEntry,
} from './studio-project-outbox.ts'
import { createOutboxSender, type OutboxSender } from './outbox-sender.ts'
import { onProjectEvent } from './project-events.ts'
import { useAccountCopyStatus } from './account-copy-status.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'
import { useSessionStore } from '../../../domain/session/session-store.ts'
import { supabase } from '../../../backend/client.ts'
import * as api from '../../../backend/studio-projects.ts'
import { getAudio, getProject, listProjects, saveProject, setProjectCopyOf, type StoredProject } from '../../../engine/project-db.ts'
import { mixDuration } from '../../../engine/mixer-model.ts'
import { deleteProjectFromAccount, downloadProjectCopy, ProjectConflictError, uploadProjectCopy } from './studio-project-copies.ts'
import { conflictCopyName } from './copy-lineage.ts'
import { emitProjectEvent } from './project-events.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { refreshAccountStorage } from '../../../domain/collection/creation-sync.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { startAccountAutosave } from './account-autosave.ts'
import { useProjectStore } from './project-store.ts'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'

/** How long after a save its upload starts: a later save within it moves the upload after that one. */
export const UPLOAD_DEBOUNCE_MS = 1500

const TOAST_ID = 'studio-project-sync'

function reportWaiting(error: unknown) {
  console.warn('studio project sync: server unreachable, will retry', error)
  notify.error('Project not updated in your account', {
    id: TOAST_ID,
    description: 'Your project is safe in this browser. It reaches your account as soon as the server can be reached.',
  })
}

function reportRefused(entry: OutboxEntry, error: unknown) {
  console.error('studio project sync refused', error)
  notify.error(entry.kind === 'upload' ? 'Project not saved to your account' : 'Project not updated in your account', {
    id: TOAST_ID,
    description: `Your project is safe in this browser, but the server refused it: ${errorMessage(error)}`,
  })
}

let outbox: Storage | null = null
/** localStorage, or where it is blocked one that lasts as long as the page (sent, not kept over a reload). */
function storage(): Storage {
  if (outbox) return outbox
  try {
    outbox = window.localStorage
  } catch {
    outbox = memoryStorage()
  }
  return outbox
}

const currentUser = () => useSessionStore.getState().user?.id ?? null
const status = () => useAccountCopyStatus.getState()

/** Whether an upload of the project waits in the outbox (other than `except`, the one being sent). */
const pendingUpload = (userId: string, id: string, except?: UploadEntry) =>
  pendingChanges(storage(), userId).some((e) => e.kind === 'upload' && e.id === id && e.due !== except?.due)

async function upload(userId: string, entry: UploadEntry) {
  const { id } = entry
  const project = await getProject(id)
  // Deleted from this browser since: its delete follows in the outbox.
  if (!project) return status().set(id, null)
  status().set(id, { phase: 'uploading', progress: 0 })
  let at: string
  try {
    at = await uploadProjectCopy(supabase(), userId, project, getAudio, (progress) => status().set(id, { phase: 'uploading', progress }))
  } catch (error) {
    if (!(error instanceof ProjectConflictError)) throw error
    return keepBoth(userId, project)
  }
  // Later saves here descend from the version now in the account.
  await setProjectCopyOf(id, project.updatedAt)
  useAccountProjectStore.getState().patch(userId, id, { audioUploadedAt: at })
  refreshAccountStorage()
  // A save during the upload queued another one: that one's status stays.
  status().set(id, pendingUpload(userId, id, entry) ? { phase: 'queued' } : null)
}

/**
 * The account holds a version of the project that another browser saved and this one never saw:
 * both are kept. The account's version comes into this browser under the project's name (first: if
 * it cannot be fetched now, nothing changes and the upload is tried again later), and this
 * browser's version becomes a new project beside it, uploaded like any save; a studio that has the
 * project open goes on editing its own version, now that new project.
 */
async function keepBoth(userId: string, mine: StoredProject) {
  const theirs = await downloadProjectCopy(supabase(), userId, mine.id)
  const now = Date.now()
  const copy: StoredProject = {
    id: crypto.randomUUID(),
    name: conflictCopyName(mine.name, api.STUDIO_PROJECT_NAME_MAX),
    createdAt: now,
    updatedAt: now,
    state: mine.state,
  }
  // Its audio is stored here already (the project's own).
  await saveProject(copy, () => undefined)
  await saveProject(theirs.project, (audioId) => theirs.audio.get(audioId))
  const open = useMixerStore.getState().project
  if (open?.id === mine.id) useMixerStore.getState().setProject({ id: copy.id, name: copy.name })
  status().set(mine.id, null)
  useAccountProjectStore.getState().patch(userId, mine.id, { audioUploadedAt: new Date(theirs.project.updatedAt).toISOString() })
  emitProjectEvent({
    kind: 'saved',
    id: copy.id,
    name: copy.name,
    createdAt: copy.createdAt,
    updatedAt: copy.updatedAt,
    trackCount: copy.state.tracks.length,
    durationSeconds: mixDuration(copy.state),
  })
  await useProjectStore.getState().refresh()
  notify('Both versions kept', {
    id: TOAST_ID,
    description:
      `"${mine.name}" was changed in another browser since this one last had it. That version stays ` +
      `"${mine.name}"; this browser's is kept beside it as "${copy.name}".`,
  })
}

async function apply(userId: string, entry: OutboxEntry) {
  const store = useAccountProjectStore.getState
  switch (entry.kind) {
    case 'saved': {
      const { kind: _kind, ...meta } = entry
      store().put(userId, await api.upsertStudioProject(supabase(), meta))
      return
    }
    case 'renamed':
      await api.renameStudioProject(supabase(), entry.id, entry.name)
      store().patch(userId, entry.id, {
        name: entry.name.trim().slice(0, api.STUDIO_PROJECT_NAME_MAX),
        updatedAt: new Date().toISOString(),
      })
      return
    case 'upload':
      return upload(userId, entry)
    case 'deleted':
      await deleteProjectFromAccount(supabase(), userId, entry.id)
      store().drop(userId, entry.id)
      status().set(entry.id, null)
      // The Library's storage figure: the copy's bytes are free again.
      refreshAccountStorage()
  }
}

let sender: OutboxSender | null = null

/** Queues the project's upload for `due` (ms since the epoch) and says so beside it. */
function queueUpload(userId: string, id: string, due: number) {
  status().set(id, { phase: 'queued' })
  addPendingUpload(storage(), userId, id, due)
  void sender?.flush()
}

/**
 * The local projects this account lists whose copy there is older than this browser's (saved
 * while the server could not be reached, or before the outbox knew uploads) are uploaded. A local
 * project the account does not list is left alone: it may be another account's or a visitor's.
 */
async function uploadStaleCopies(userId: string) {
  const pending = new Set(pendingChanges(storage(), userId).map((e) => e.id))
  const listed = new Map(useAccountProjectStore.getState().projects.map((p) => [p.id, p]))
  for (const local of await listProjects()) {
    const meta = listed.get(local.id)
    if (!meta || pending.has(local.id)) continue
    const copyAt = meta.audioUploadedAt ? Date.parse(meta.audioUploadedAt) : Number.NEGATIVE_INFINITY
    if (copyAt < local.updatedAt) queueUpload(userId, local.id, Date.now())
  }
}

/** Rereads the signed-in user's project list from the server into the account store. */
export async function refreshAccountProjects(): Promise<void> {
  const userId = currentUser()
  if (!userId) return
  useAccountProjectStore.getState().setLoading(userId)
  try {
    // After the changes already on their way, so the list cannot be older than what was saved.
    await sender?.idle()
    const projects = await api.listStudioProjects(supabase())
    useAccountProjectStore.getState().setProjects(userId, projects)
  } catch (error) {
    console.warn('studio project list failed', error)
    useAccountProjectStore.getState().setError(userId)
    return
  }
  await uploadStaleCopies(userId).catch((error: unknown) => console.warn('stale project copies not queued', error))
}

/** Tries a refused upload again (the status line's "Try again"). */
export function retryProjectUpload(id: string): void {
  const userId = currentUser()
  if (userId) queueUpload(userId, id, Date.now())
}

/**
 * Removes a project from the account only (one whose audio lives on another device). Rejects on
 * failure so the caller can say so.
 */
export function removeFromAccount(id: string): Promise<void> {
  const userId = currentUser()
  if (!userId || !sender) return Promise.reject(new Error('Log in to manage your account projects.'))
  // The same removal as a local delete's, but outside the outbox: the caller reports a failure.
  return sender.after(() => apply(userId, { kind: 'deleted', id }))
}

/** Resolves once every change made so far has reached the server (or failed). */
export function studioProjectSyncIdle(): Promise<void> {
  return sender?.idle() ?? Promise.resolve()
}

export function startStudioProjectSync(): void {
  if (sender) return
  const store = storage()
  sender = createOutboxSender({
    storage: store,
    currentUser,
    send: apply,
    onWaiting: (_entry, error) => {
      reportWaiting(error)
      status().waitAll()
    },
    onRefused: (entry, error) => {
      // An upload overtaken by a newer save (whose audio it could then no longer read) is not a
      // failure: the newer one is queued already.
      const userId = currentUser()
      if (entry.kind === 'upload' && userId && pendingUpload(userId, entry.id)) return
      reportRefused(entry, error)
      if (entry.kind === 'upload') status().set(entry.id, { phase: 'failed', message: errorMessage(error) })
    },
    onRecovered: () => {
      status().resume()
      notify.success('Account projects updated', {
        id: TOAST_ID,
        description: 'Changes made while the server was out of reach have reached your account.',
      })
    },
  })
  onProjectEvent((event) => {
    const userId = currentUser()
    if (!userId) return
    addPendingChange(store, userId, event)
    // A rename too: the copy's manifest carries the name (its audio is not sent again).
    if (event.kind !== 'deleted') queueUpload(userId, event.id, Date.now() + UPLOAD_DEBOUNCE_MS)
    else status().set(event.id, null)
    void sender?.flush()
  })
  window.addEventListener('online', () => void sender?.flush())
  // An open project of this account is saved by itself after each pause in editing (not in a live
  // session, whose document is the shared one), and so follows to the account like any save.
  startAccountAutosave({
    eligible: (id) => {
      const account = useAccountProjectStore.getState()
      const userId = currentUser()
      return (
        userId !== null && account.userId === userId && account.projects.some((p) => p.id === id) && !useLiveSessionStore.getState().session
      )
    },
    save: () => useProjectStore.getState().saveCurrent(),
  })
  const follow = (userId: string | null) => {
    status().clear()
    if (!userId) useAccountProjectStore.getState().clear()
    else {
      // After a reload: the uploads still pending say so.
      for (const e of pendingChanges(store, userId)) if (e.kind === 'upload') status().set(e.id, { phase: 'queued' })
      void sender?.flush()
      if (useAccountProjectStore.getState().userId !== userId) void refreshAccountProjects()
    }
  }
  follow(currentUser())
  useSessionStore.subscribe((state, prev) => {
    if (state.user?.id !== prev.user?.id) follow(state.user?.id ?? null)
  })
}
