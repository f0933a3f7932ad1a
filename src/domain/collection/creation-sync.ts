/**
 * Keeps the signed-in creator's own Library tracks (generated, recorded, uploaded, exported,
 * remixed) in their account, so every device they sign in to lists, plays, publishes and remixes
 * them. IndexedDB stays the offline copy and what a visitor has.
 *
 * - A track added while signed in goes up in the background (creation-store.ts shows its progress);
 *   a visitor's tracks are taken into the account at the next sign-in (sign-up included).
 * - A lost connection pauses an upload: it retries with a growing pause and when the browser is back
 *   online, resuming at the first part the account lacks; a full account stops it with the server's
 *   message until something is deleted.
 * - On sign-in the account's complete tracks join the Library; their audio is fetched the first time
 *   something reads it (setMissingAudioSource) and kept on the device.
 * - Removing a track from the Library deletes its files and row from its account (later, when that
 *   account is signed in again, if it is not now); one deleted on another device leaves this Library.
 *
 *   startCreationSync()        once per page (src/app/start-services.ts)
 *   deleteOwnTrack(song)       removes it from the Library, this device and its account
 *   creationSyncIdle()         resolves once the work queued so far is done (tests)
 */
import type { Song } from '../../lib/catalogue/song.ts'
import { getAudioBlob, isIdbAudioUrl, setMissingAudioSource } from '../../lib/user-audio-store.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { supabase } from '../../backend/client.ts'
import {
  beginCreation,
  CreationError,
  deleteCreation,
  downloadCreationAudio,
  fetchAccountStorage,
  finishCreation,
  listCreations,
  uploadCreationParts,
  type CreationRow,
} from '../../backend/creations.ts'
import { useSessionStore } from '../session/session-store.ts'
import { useLibraryStore } from './library-store.ts'
import { creationMeta, planCreationSync, songFromCreation } from './creation-record.ts'
import { readLedger, updateLedger, useCreationStore } from './creation-store.ts'

let started = false
let activeUser: string | null = null
/** The account's rows as last listed, by id (the missing-audio source reads them). */
let remoteRows = new Map<string, CreationRow>()
/** Changes this module makes to the Library itself, which its own listener must not answer. */
let applying = false
let chain: Promise<void> = Promise.resolve()
const queued = new Set<string>()
let retryTimer: ReturnType<typeof setTimeout> | undefined
let retryDelay = 2000
/** Whether the account's list has been read since the user signed in (until then a retry reads it). */
let listed = false

/** One job at a time, in order: an upload and a deletion of the same track never overlap. */
function serial(job: () => Promise<void>): Promise<void> {
  chain = chain.then(job).catch((err: unknown) => console.warn('[creations]', err))
  return chain
}

const track = (id: string): Song | undefined => useLibraryStore.getState().userTracks.find((t) => t.id === id)

async function refreshUsage(userId: string): Promise<void> {
  try {
    const usage = await fetchAccountStorage(supabase())
    if (activeUser === userId) useCreationStore.getState().setUsage(usage)
  } catch (err) {
    console.warn('[creations] storage figures unavailable', err)
  }
}

function scheduleRetry(): void {
  if (retryTimer) return
  retryTimer = setTimeout(() => {
    retryTimer = undefined
    retryDelay = Math.min(retryDelay * 2, 60_000)
    if (activeUser && !listed) void syncAccount(activeUser)
    resumeWaiting()
  }, retryDelay)
}

/** Uploads that waited for a connection (or for room, `quota`) start again. */
function resumeWaiting(quota = false): void {
  for (const u of Object.values(useCreationStore.getState().uploads))
    if (u.status === 'waiting' || u.status === 'failed' || (quota && u.status === 'quota')) enqueueUpload(u.id)
}

function enqueueUpload(id: string): void {
  if (queued.has(id) || !activeUser) return
  queued.add(id)
  const userId = activeUser
  void serial(async () => {
    queued.delete(id)
    await uploadOne(userId, id)
  })
}

async function uploadOne(userId: string, id: string): Promise<void> {
  const song = track(id)
  if (activeUser !== userId || !song || !isIdbAudioUrl(song.audioUrl) || readLedger().owners[id] !== userId) return
  const store = useCreationStore.getState()
  const show = (fraction: number, status: 'uploading' | 'waiting' | 'quota' | 'failed', message?: string) =>
    store.setUpload({ id, title: song.title, fraction, status, ...(message ? { message } : {}) })
  let fraction = 0
  show(0, 'uploading')
  try {
    const blob = await getAudioBlob(id)
    const db = supabase()
    await beginCreation(db, await creationMeta(song, blob))
    await uploadCreationParts(db, userId, id, blob, (f) => {
      fraction = f
      show(f, 'uploading')
    })
    // Removed from the Library meanwhile: its deletion, queued behind this job, cleans up.
    if (!track(id)) return
    await finishCreation(db, id)
    updateLedger((l) => {
      l.synced[id] = userId
    })
    retryDelay = 2000
    useCreationStore.getState().clearUpload(id)
    await refreshUsage(userId)
  } catch (err) {
    const kind = err instanceof CreationError ? err.kind : 'refused'
    if (kind === 'network') {
      show(fraction, 'waiting', 'No connection to your account: the upload continues by itself when it is back.')
      scheduleRetry()
    } else if (kind === 'quota') show(fraction, 'quota', errorMessage(err))
    else show(fraction, 'failed', `Not kept in your account: ${errorMessage(err)}`)
  }
}

function enqueueDelete(id: string, userId: string): void {
  void serial(async () => {
    if (activeUser !== userId) return
    try {
      await deleteCreation(supabase(), userId, id)
      updateLedger((l) => {
        l.deletes = l.deletes.filter((d) => !(d.id === id && d.userId === userId))
      })
      remoteRows.delete(id)
      await refreshUsage(userId)
      // Room was freed: what the quota stopped may fit now.
      resumeWaiting(true)
    } catch (err) {
      console.warn('[creations] deletion waits for the next sync', err)
    }
  })
}

/** Lists the account, merges it with this Library, then sends what is missing. */
function syncAccount(userId: string): Promise<void> {
  return serial(async () => {
    if (activeUser !== userId) return
    let rows: CreationRow[]
    try {
      rows = await listCreations(supabase())
    } catch (err) {
      console.warn('[creations] the account could not be listed; it syncs later', err)
      scheduleRetry()
      return
    }
    if (activeUser !== userId) return
    listed = true
    remoteRows = new Map(rows.map((r) => [r.id, r]))
    const ledger = readLedger()
    const plan = planCreationSync({ userId, local: useLibraryStore.getState().userTracks, remote: rows, ledger })
    updateLedger((l) => {
      for (const id of plan.claim) l.owners[id] = userId
      for (const row of plan.add) {
        l.owners[row.id] = userId
        l.synced[row.id] = userId
      }
      for (const id of plan.dropLocal) {
        delete l.owners[id]
        delete l.synced[id]
      }
    })
    applying = true
    try {
      for (const id of plan.dropLocal) useLibraryStore.getState().removeTrack(id)
      // Oldest first, so the newest ends on top as addTrack puts each first.
      for (const row of [...plan.add].reverse()) useLibraryStore.getState().addTrack(songFromCreation(row))
    } finally {
      applying = false
    }
    for (const d of readLedger().deletes) if (d.userId === userId) enqueueDelete(d.id, userId)
    for (const id of plan.upload) enqueueUpload(id)
    await refreshUsage(userId)
  })
}

/** The account's copy of a track this device lacks (another device made it). */
async function fromAccount(id: string): Promise<Blob | null> {
  const userId = activeUser
  if (!userId) return null
  let row = remoteRows.get(id)
  if (!row) {
    remoteRows = new Map((await listCreations(supabase())).map((r) => [r.id, r]))
    row = remoteRows.get(id)
  }
  if (!row?.uploadedAt) return null
  return downloadCreationAudio(supabase(), userId, row)
}

function onLibraryChange(tracks: readonly Song[], previous: readonly Song[]): void {
  if (applying) return
  const now = new Set(tracks.map((t) => t.id))
  const before = new Set(previous.map((t) => t.id))
  for (const t of tracks) {
    if (before.has(t.id) || !isIdbAudioUrl(t.audioUrl)) continue
    const ledger = readLedger()
    if (ledger.owners[t.id] === undefined && activeUser)
      updateLedger((l) => {
        l.owners[t.id] = activeUser!
      })
    if (readLedger().owners[t.id] === activeUser) enqueueUpload(t.id)
  }
  for (const t of previous) {
    if (now.has(t.id)) continue
    const owner = readLedger().owners[t.id]
    useCreationStore.getState().clearUpload(t.id)
    if (!owner) continue
    updateLedger((l) => {
      delete l.owners[t.id]
      delete l.synced[t.id]
      l.deletes.push({ id: t.id, userId: owner })
    })
    if (owner === activeUser) enqueueDelete(t.id, owner)
  }
}

function onUser(userId: string | null): void {
  if (userId === activeUser) return
  activeUser = userId
  listed = false
  remoteRows = new Map()
  useCreationStore.getState().clearAll()
  if (userId) void syncAccount(userId)
}

export function startCreationSync(): void {
  if (started) return
  started = true
  setMissingAudioSource(fromAccount)
  useLibraryStore.subscribe((s, prev) => {
    if (s.userTracks !== prev.userTracks) onLibraryChange(s.userTracks, prev.userTracks)
  })
  useSessionStore.subscribe((s) => onUser(s.user?.id ?? null))
  onUser(useSessionStore.getState().user?.id ?? null)
  window.addEventListener('online', () => {
    retryDelay = 2000
    if (activeUser && !listed) void syncAccount(activeUser)
    resumeWaiting()
  })
}

export function deleteOwnTrack(song: Song): void {
  const inAccount = readLedger().owners[song.id] !== undefined
  useLibraryStore.getState().removeTrack(song.id)
  notify.success(`Deleted “${song.title}”`, {
    description: inAccount ? 'Removed from this device and from your account.' : 'Removed from this device.',
  })
}

/**
 * Reads the account's storage figures again (the Library shows them): for other writers to the
 * quota, such as the studio's project copies, after they uploaded or deleted.
 */
export function refreshAccountStorage(): void {
  if (activeUser) void refreshUsage(activeUser)
}

export function creationSyncIdle(): Promise<void> {
  return chain
}
