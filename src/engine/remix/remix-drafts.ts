/**
 * Remix drafts in IndexedDB (database 'cube-remix', store 'drafts', key id): the whole remix state
 * (source, settings, loop region, an attempt key of a burn in progress), listed newest first and
 * reopenable after a reload. A source picked from the device is stored with the draft (a Blob), so
 * the draft reopens without it. Saving spends nothing.
 *
 *   saveRemixDraft(draft) · listRemixDrafts() · getRemixDraft(id) · deleteRemixDraft(id)
 */
import { sanitizeRemixSettings, type RemixSettings } from './remix-settings.ts'

export interface RemixDraftSource {
  /** Catalogue song id, library track id, or 'file:<name>' for a file from the device. */
  ref: string
  title: string
  /** Where the audio is (catalogue '/audio/…' or library 'idb:…'); absent for a device file. */
  audioUrl?: string
  file?: Blob
}

export interface RemixDraft {
  id: string
  name: string
  source: RemixDraftSource
  settings: RemixSettings
  loop: { start: number; end: number } | null
  savedAt: number
}

const DB_NAME = 'cube-remix'
const VERSION = 1

let dbPromise: Promise<IDBDatabase> | null = null

function openDb(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('This browser has no IndexedDB, so drafts cannot be stored.'))
  if (!dbPromise) {
    dbPromise = new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, VERSION)
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains('drafts')) req.result.createObjectStore('drafts', { keyPath: 'id' })
      }
      req.onsuccess = () => {
        const db = req.result
        db.onversionchange = () => {
          db.close()
          dbPromise = null
        }
        resolve(db)
      }
      req.onerror = () => reject(req.error ?? new Error('Could not open the drafts database'))
    })
    dbPromise.catch(() => (dbPromise = null))
  }
  return dbPromise
}

async function run<T>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb()
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction('drafts', mode)
    const req = op(tx.objectStore('drafts'))
    tx.oncomplete = () => resolve(req.result)
    tx.onerror = () => reject(tx.error ?? new Error('Draft storage failed'))
    tx.onabort = () => reject(tx.error ?? new Error('Draft storage was aborted (is the disk full?)'))
  })
}

/** A stored record becomes a draft only when its shape is right; settings are re-validated. */
function toDraft(raw: unknown): RemixDraft | null {
  if (!raw || typeof raw !== 'object') return null
  const r = raw as Record<string, unknown>
  const s = r.source as Record<string, unknown> | undefined
  if (typeof r.id !== 'string' || typeof r.name !== 'string' || !s || typeof s.ref !== 'string' || typeof s.title !== 'string') return null
  const loop = r.loop as { start?: unknown; end?: unknown } | null
  return {
    id: r.id,
    name: r.name,
    source: {
      ref: s.ref,
      title: s.title,
      audioUrl: typeof s.audioUrl === 'string' ? s.audioUrl : undefined,
      file: s.file instanceof Blob ? s.file : undefined,
    },
    settings: sanitizeRemixSettings(r.settings),
    loop:
      loop && typeof loop.start === 'number' && typeof loop.end === 'number' && loop.end > loop.start
        ? { start: loop.start, end: loop.end }
        : null,
    savedAt: typeof r.savedAt === 'number' ? r.savedAt : 0,
  }
}

export async function saveRemixDraft(draft: RemixDraft): Promise<void> {
  await run('readwrite', (store) => store.put(draft))
}

export async function listRemixDrafts(): Promise<RemixDraft[]> {
  const all = await run('readonly', (store) => store.getAll())
  return all
    .map(toDraft)
    .filter((d): d is RemixDraft => d !== null)
    .sort((a, b) => b.savedAt - a.savedAt)
}

export async function getRemixDraft(id: string): Promise<RemixDraft | null> {
  return toDraft(await run('readonly', (store) => store.get(id)))
}

export async function deleteRemixDraft(id: string): Promise<void> {
  await run('readwrite', (store) => store.delete(id))
}
