/**
 * Audio the user made or uploaded, kept as Blobs in IndexedDB (database 'cube-user-audio', store
 * 'audio', key = id). Songs point at it with audioUrl 'idb:<id>'.
 *
 *   putAudio(id, blob): Promise<void>
 *   getAudioBlob(id): Promise<Blob>                 rejects UserAudioError('missing') when absent (and the
 *                                                   fallback, if one is set, does not have it either)
 *   setMissingAudioSource(fn | null)                where audio absent from this device comes from (the
 *                                                   account's copy); what it answers is kept here as the cache
 *   deleteAudio(id): Promise<void>                  no error when absent
 *   idbAudioUrl(id): string                          'idb:<id>'
 *   parseIdbAudioUrl(url): string                    the id; throws UserAudioError('malformed')
 *   resolveAudioUrl(audioUrl): Promise<ResolvedAudioUrl>
 *       'idb:<id>' → object URL (call release() when done); same-origin '/…' and 'blob:' pass through.
 *       Anything else (third-party http(s), javascript:, empty) → UserAudioError('malformed').
 */
export type UserAudioErrorKind = 'malformed' | 'missing' | 'unavailable'

export class UserAudioError extends Error {
  constructor(
    readonly kind: UserAudioErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'UserAudioError'
  }
}

const DB_NAME = 'cube-user-audio'
const STORE = 'audio'
const ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/

let dbPromise: Promise<IDBDatabase> | null = null

function openDb(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined')
    return Promise.reject(new UserAudioError('unavailable', 'This browser has no IndexedDB, so saved audio is unavailable.'))
  if (!dbPromise) {
    dbPromise = new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1)
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE)
      }
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(new UserAudioError('unavailable', `Could not open saved audio: ${req.error?.message ?? 'unknown error'}`))
      req.onblocked = () => reject(new UserAudioError('unavailable', 'Saved audio is blocked by another tab; close it and retry.'))
    })
    dbPromise.catch(() => {
      dbPromise = null
    })
  }
  return dbPromise
}

function checkId(id: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw new UserAudioError('malformed', `Invalid audio id "${String(id)}"`)
  return id
}

function request<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return openDb().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode)
        const req = run(tx.objectStore(STORE))
        tx.oncomplete = () => resolve(req.result)
        tx.onerror = () =>
          reject(
            new UserAudioError(
              'unavailable',
              `Saved audio ${mode === 'readonly' ? 'read' : 'write'} failed: ${tx.error?.message ?? 'unknown error'}`,
            ),
          )
        tx.onabort = tx.onerror
      }),
  )
}

export async function putAudio(id: string, blob: Blob): Promise<void> {
  checkId(id)
  if (!(blob instanceof Blob) || blob.size === 0) throw new UserAudioError('malformed', 'Cannot save empty audio.')
  await request('readwrite', (s) => s.put(blob, id))
}

/** Answers the audio of an id this device does not hold, or null when it has none either. */
export type MissingAudioSource = (id: string) => Promise<Blob | null>
let missingAudioSource: MissingAudioSource | null = null

/**
 * Lets a layer above (the account's copies of the user's tracks) fill in audio this device lacks,
 * so every reader (the player, publishing, the remix studio) finds it by the same 'idb:<id>'.
 */
export function setMissingAudioSource(source: MissingAudioSource | null): void {
  missingAudioSource = source
}

export async function getAudioBlob(id: string): Promise<Blob> {
  checkId(id)
  const value = await request<unknown>('readonly', (s) => s.get(id))
  if (value instanceof Blob) return value
  const fetched = missingAudioSource ? await missingAudioSource(id) : null
  if (!fetched) throw new UserAudioError('missing', `Saved audio "${id}" was not found on this device.`)
  // Kept here as the offline copy; a full disk only means it is fetched again next time.
  await putAudio(id, fetched).catch(() => undefined)
  return fetched
}

export async function deleteAudio(id: string): Promise<void> {
  checkId(id)
  await request('readwrite', (s) => s.delete(id))
}

export const idbAudioUrl = (id: string): string => `idb:${checkId(id)}`

export const isIdbAudioUrl = (url: string): boolean => typeof url === 'string' && url.startsWith('idb:')

export function parseIdbAudioUrl(url: string): string {
  if (!isIdbAudioUrl(url)) throw new UserAudioError('malformed', `Not a saved-audio URL: "${String(url)}"`)
  return checkId(url.slice(4))
}

export interface ResolvedAudioUrl {
  url: string
  release: () => void
}

export async function resolveAudioUrl(audioUrl: string): Promise<ResolvedAudioUrl> {
  if (typeof audioUrl !== 'string' || audioUrl.length === 0) throw new UserAudioError('malformed', 'This song has no audio.')
  if (isIdbAudioUrl(audioUrl)) {
    const blob = await getAudioBlob(parseIdbAudioUrl(audioUrl))
    const url = URL.createObjectURL(blob)
    return { url, release: () => URL.revokeObjectURL(url) }
  }
  // Same-origin only: the app never loads audio from a third party.
  if ((audioUrl.startsWith('/') && !audioUrl.startsWith('//')) || audioUrl.startsWith('blob:')) return { url: audioUrl, release: () => {} }
  throw new UserAudioError('malformed', `Unsupported audio address "${audioUrl}"`)
}
