/**
 * IndexedDB persistence for the Music Studio (database 'cube-studio'):
 *
 *   projects    { id, name, createdAt, updatedAt, state: MixerState }           key id
 *   audio       { id, sampleRate, channels: Float32Array[] }                      key id (track audioId)
 *   recordings  RecordingSession (a take in progress, see below)                  key id
 *   chunks      { sessionId, seq, channels: Float32Array[] }                      key [sessionId, seq]
 *   drafts      MixDraft { id: 'current', state, project, savedAt } (the autosaved mix)  key id
 *
 * Projects:   listProjects(), getProject(id), saveProject(p, audio), renameProject(id, name),
 *             deleteProject(id)  (its audio is removed unless another project still uses it),
 *             getAudio(id).
 * Draft:      saveDraft(draft, audio), getDraft(), clearDraft(): the open mix, autosaved. Its audio
 *             goes into 'audio' beside the projects' (one copy per audioId); audio that neither a
 *             project nor the draft references any more is deleted in the same transaction.
 * Recordings: idbChunkStore implements RecordingChunkStore from src/engine/recorder-chunks.ts, so a
 *             take survives a reload or crash up to the last flushed chunk (about one second).
 * Float32Arrays are stored as-is (structured clone), so audio round-trips bit-exactly.
 */
import type { MixerState } from './mixer-model.ts'
import type { RecordingChunkStore, RecordingSession, StoredChunk } from './recorder-chunks.ts'

export interface StoredProject {
  id: string
  name: string
  createdAt: number
  updatedAt: number
  state: MixerState
  /** The version of the account's copy this one descends from (features/studio/projects/copy-lineage.ts). */
  copyOf?: number
}

export interface StoredAudio {
  id: string
  sampleRate: number
  channels: Float32Array[]
}

/** The autosaved open mix: what the mixer held, and which saved project it was (if any). */
export interface MixDraft {
  state: MixerState
  project: { id: string; name: string } | null
  savedAt: number
  /** The user was told this mix was restored and kept it: later restores need no notice. */
  acknowledged?: boolean
}

const DB_NAME = 'cube-studio'
// 2: the 'drafts' store (autosave). Stores are only ever added, so the upgrade is additive.
const VERSION = 2
const DRAFT_ID = 'current'
type StoreName = 'projects' | 'audio' | 'recordings' | 'chunks' | 'drafts'

let dbPromise: Promise<IDBDatabase> | null = null

export class ProjectDbError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProjectDbError'
  }
}

function openDb(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new ProjectDbError('This browser has no IndexedDB, so projects cannot be stored.'))
  if (!dbPromise) {
    dbPromise = new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, VERSION)
      req.onupgradeneeded = () => {
        const db = req.result
        if (!db.objectStoreNames.contains('projects')) db.createObjectStore('projects', { keyPath: 'id' })
        if (!db.objectStoreNames.contains('audio')) db.createObjectStore('audio', { keyPath: 'id' })
        if (!db.objectStoreNames.contains('recordings')) db.createObjectStore('recordings', { keyPath: 'id' })
        if (!db.objectStoreNames.contains('chunks')) db.createObjectStore('chunks', { keyPath: ['sessionId', 'seq'] })
        if (!db.objectStoreNames.contains('drafts')) db.createObjectStore('drafts', { keyPath: 'id' })
      }
      req.onsuccess = () => {
        const db = req.result
        // A newer version opened in another tab (an update adding a store): step aside so its
        // upgrade is not blocked; the next call here reopens at the new version.
        db.onversionchange = () => {
          db.close()
          dbPromise = null
        }
        resolve(db)
      }
      req.onerror = () => reject(new ProjectDbError(`Could not open the studio database: ${req.error?.message ?? 'unknown error'}`))
      req.onblocked = () => reject(new ProjectDbError('The studio database is blocked by another tab; close it and retry.'))
    })
    dbPromise.catch(() => {
      dbPromise = null
    })
  }
  return dbPromise
}

/** Runs `work` in one transaction and resolves with its result once the transaction commits. */
async function tx<T>(
  names: StoreName[],
  mode: IDBTransactionMode,
  work: (stores: Record<StoreName, IDBObjectStore>) => Promise<T> | T,
): Promise<T> {
  const db = await openDb()
  return new Promise<T>((resolve, reject) => {
    const t = db.transaction(names, mode)
    const stores = Object.fromEntries(names.map((n) => [n, t.objectStore(n)])) as Record<StoreName, IDBObjectStore>
    let result: T
    t.oncomplete = () => resolve(result)
    t.onerror = () => reject(new ProjectDbError(t.error?.message ?? 'Database error'))
    t.onabort = () => reject(new ProjectDbError(t.error?.message ?? 'Database write aborted (storage full?)'))
    Promise.resolve(work(stores)).then(
      (r) => {
        result = r
      },
      (err) => {
        t.abort()
        reject(err)
      },
    )
  })
}

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(new ProjectDbError(r.error?.message ?? 'Database error'))
  })
}

// ---- projects -------------------------------------------------------------------------------

export async function listProjects(): Promise<StoredProject[]> {
  const all = await tx(['projects'], 'readonly', (s) => req(s.projects.getAll() as IDBRequest<StoredProject[]>))
  return all.sort((a, b) => b.updatedAt - a.updatedAt)
}

export function getProject(id: string): Promise<StoredProject | undefined> {
  return tx(['projects'], 'readonly', (s) => req(s.projects.get(id) as IDBRequest<StoredProject | undefined>))
}

export function getAudio(id: string): Promise<StoredAudio | undefined> {
  return tx(['audio'], 'readonly', (s) => req(s.audio.get(id) as IDBRequest<StoredAudio | undefined>))
}

/** Writes the project and every audio it references that is not stored yet, atomically. */
export function saveProject(project: StoredProject, audio: (id: string) => StoredAudio | undefined): Promise<void> {
  return tx(['projects', 'audio'], 'readwrite', async (s) => {
    for (const t of project.state.tracks) {
      const have = await req(s.audio.getKey(t.audioId))
      if (have !== undefined) continue
      const a = audio(t.audioId)
      if (!a) throw new ProjectDbError(`Audio of track "${t.name}" is missing`)
      s.audio.put(a)
    }
    s.projects.put(project)
  })
}

/** Notes that the project's local version descends from the account's version `copyOf`. */
export function setProjectCopyOf(id: string, copyOf: number): Promise<void> {
  return tx(['projects'], 'readwrite', async (s) => {
    const p = (await req(s.projects.get(id))) as StoredProject | undefined
    if (p) s.projects.put({ ...p, copyOf })
  })
}

export function renameProject(id: string, name: string): Promise<void> {
  return tx(['projects'], 'readwrite', async (s) => {
    const p = (await req(s.projects.get(id))) as StoredProject | undefined
    if (!p) throw new ProjectDbError('Project not found')
    s.projects.put({ ...p, name, updatedAt: Date.now() })
  })
}

export function deleteProject(id: string): Promise<void> {
  return tx(['projects', 'audio', 'drafts'], 'readwrite', async (s) => {
    const all = (await req(s.projects.getAll())) as StoredProject[]
    const target = all.find((p) => p.id === id)
    if (!target) return
    const draft = (await req(s.drafts.get(DRAFT_ID))) as (MixDraft & { id: string }) | undefined
    const stillUsed = new Set(
      [...all.filter((p) => p.id !== id), ...(draft ? [draft] : [])].flatMap((p) => p.state.tracks.map((t) => t.audioId)),
    )
    for (const t of target.state.tracks) if (!stillUsed.has(t.audioId)) s.audio.delete(t.audioId)
    s.projects.delete(id)
  })
}

// ---- draft (autosave) ------------------------------------------------------------------------

/** Deletes stored audio that no project and no draft refers to (within the caller's transaction). */
async function dropOrphanAudio(s: Record<StoreName, IDBObjectStore>, draft: MixDraft | undefined): Promise<void> {
  const projects = (await req(s.projects.getAll())) as StoredProject[]
  const used = new Set([...projects, ...(draft ? [draft] : [])].flatMap((p) => p.state.tracks.map((t) => t.audioId)))
  const keys = (await req(s.audio.getAllKeys())) as string[]
  for (const key of keys) if (!used.has(key)) s.audio.delete(key)
}

/**
 * Replaces the draft and writes the audio it needs that is not stored yet, atomically. Audio the
 * caller no longer has is skipped (the restore drops such tracks) rather than failing the
 * whole autosave.
 */
export function saveDraft(draft: MixDraft, audio: (id: string) => StoredAudio | undefined): Promise<void> {
  return tx(['projects', 'audio', 'drafts'], 'readwrite', async (s) => {
    for (const id of new Set(draft.state.tracks.map((t) => t.audioId))) {
      if ((await req(s.audio.getKey(id))) !== undefined) continue
      const a = audio(id)
      if (a) s.audio.put(a)
    }
    s.drafts.put({ ...draft, id: DRAFT_ID })
    await dropOrphanAudio(s, draft)
  })
}

export async function getDraft(): Promise<MixDraft | undefined> {
  const d = await tx(['drafts'], 'readonly', (s) => req(s.drafts.get(DRAFT_ID) as IDBRequest<(MixDraft & { id: string }) | undefined>))
  if (!d) return undefined
  const { id: _id, ...draft } = d
  return draft
}

export function clearDraft(): Promise<void> {
  return tx(['projects', 'audio', 'drafts'], 'readwrite', async (s) => {
    s.drafts.delete(DRAFT_ID)
    await dropOrphanAudio(s, undefined)
  })
}

/** Keys of every stored audio (tests and diagnostics). */
export function storedAudioIds(): Promise<string[]> {
  return tx(['audio'], 'readonly', (s) => req(s.audio.getAllKeys() as IDBRequest<string[]>))
}

// ---- recording chunks -----------------------------------------------------------------------

export const idbChunkStore: RecordingChunkStore = {
  begin: (session) => tx(['recordings'], 'readwrite', (s) => void s.recordings.put(session)),
  append: (chunk) => tx(['chunks'], 'readwrite', (s) => void s.chunks.put(chunk)),
  sessions: () => tx(['recordings'], 'readonly', (s) => req(s.recordings.getAll() as IDBRequest<RecordingSession[]>)),
  chunks: (sessionId) =>
    tx(['chunks'], 'readonly', (s) =>
      req(s.chunks.getAll(IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])) as IDBRequest<StoredChunk[]>),
    ),
  remove: (sessionId) =>
    tx(['recordings', 'chunks'], 'readwrite', (s) => {
      s.recordings.delete(sessionId)
      s.chunks.delete(IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]))
    }),
}
