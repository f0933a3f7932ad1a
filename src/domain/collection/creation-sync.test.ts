import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { CreationMeta, CreationRow } from '../../backend/creations.ts'

// The background sync of the user's own tracks against an in-memory account: a visitor's track is
// taken in at sign-in, an upload cut off by a lost connection waits and resumes when the browser is
// online again, the quota's refusal holds an upload until a deletion frees room, and a track made
// on another device joins the Library with its audio fetched from the account on first read.

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(() => {}, { error: () => {}, success: () => {} }) }))
vi.mock('../../backend/client.ts', () => ({ supabase: () => ({}) }))

const account = { rows: new Map<string, CreationRow>(), audio: new Map<string, Blob>(), down: false, limit: 1000, deleted: [] as string[] }
const used = () => [...account.audio.values()].reduce((n, b) => n + b.size, 0)
vi.mock('../../backend/creations.ts', async (original) => {
  const real = await original<typeof import('../../backend/creations.ts')>()
  const reach = () => {
    if (account.down) throw new real.CreationError('network', 'Your account could not be reached: Failed to fetch')
  }
  return {
    ...real,
    listCreations: async () => (reach(), [...account.rows.values()]),
    beginCreation: async (_db: unknown, meta: CreationMeta) => {
      reach()
      if (account.rows.has(meta.id)) return
      if (used() + meta.byteSize > account.limit)
        throw new real.CreationError('quota', `Your account storage is full: ${used()} bytes of ${account.limit} bytes used.`)
      account.rows.set(meta.id, { ...meta, partCount: 1, uploadedAt: null, createdAt: new Date().toISOString() })
    },
    uploadCreationParts: async (_db: unknown, _u: string, id: string, blob: Blob, onProgress?: (f: number) => void) => {
      reach()
      account.audio.set(id, blob)
      onProgress?.(1)
    },
    finishCreation: async (_db: unknown, id: string) => {
      reach()
      account.rows.set(id, { ...account.rows.get(id)!, uploadedAt: new Date().toISOString() })
    },
    downloadCreationAudio: async (_db: unknown, _u: string, row: CreationRow) => (reach(), account.audio.get(row.id)!),
    deleteCreation: async (_db: unknown, _u: string, id: string) => {
      reach()
      account.audio.delete(id)
      account.rows.delete(id)
      account.deleted.push(id)
    },
    fetchAccountStorage: async () => (reach(), { usedBytes: used(), limitBytes: account.limit, items: account.rows.size }),
  }
})

// This device's IndexedDB, and the fallback the sync registers for audio it lacks.
const device = new Map<string, Blob>()
let missing: ((id: string) => Promise<Blob | null>) | null = null
vi.mock('../../lib/user-audio-store.ts', async (original) => ({
  ...(await original<typeof import('../../lib/user-audio-store.ts')>()),
  setMissingAudioSource: (fn: typeof missing) => void (missing = fn),
  getAudioBlob: async (id: string) => device.get(id) ?? (await missing?.(id)) ?? Promise.reject(new Error('missing')),
  deleteAudio: async (id: string) => void device.delete(id),
}))

const win = new EventTarget()
vi.stubGlobal('window', win)
const stored = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (k: string) => stored.get(k) ?? null,
  setItem: (k: string, v: string) => void stored.set(k, String(v)),
  removeItem: (k: string) => void stored.delete(k),
})

const { startCreationSync, creationSyncIdle, deleteOwnTrack } = await import('./creation-sync.ts')
const { useCreationStore } = await import('./creation-store.ts')
const { useLibraryStore } = await import('./library-store.ts')
const { useSessionStore } = await import('../session/session-store.ts')
const { getAudioBlob } = await import('../../lib/user-audio-store.ts')

const track = (id: string, bytes: number) => {
  device.set(id, new Blob([new Uint8Array(bytes)], { type: 'audio/webm' }))
  useLibraryStore
    .getState()
    .addTrack({ id, title: id, artist: 'You', duration: '0:03', seconds: 3, image: '/c.svg', audioUrl: `idb:${id}` })
}
const signIn = (id: string | null) => useSessionStore.setState({ user: id ? { id, email: `${id}@example.com` } : null })
const complete = () => [...account.rows.values()].filter((r) => r.uploadedAt).map((r) => r.id)
/** Lets the awaited work queued so far finish (each job may queue another). */
const idle = async () => {
  for (let i = 0; i < 5; i++) await creationSyncIdle()
}

beforeAll(() => {
  useLibraryStore.setState({ userTracks: [] })
  startCreationSync()
})

describe('creation sync', () => {
  it('takes a visitor’s track into the account at sign-in', async () => {
    track('take-visitor', 100)
    await idle()
    expect(account.rows.size).toBe(0)
    signIn('u1')
    await idle()
    expect(complete()).toEqual(['take-visitor'])
    expect(useCreationStore.getState().usage).toEqual({ usedBytes: 100, limitBytes: 1000, items: 1 })
    expect(useCreationStore.getState().uploads).toEqual({})
  })

  it('an upload cut off by a lost connection waits, then resumes by itself when the browser is online', async () => {
    account.down = true
    track('gen-offline', 200)
    await idle()
    expect(useCreationStore.getState().uploads['gen-offline']).toMatchObject({ status: 'waiting' })
    expect(complete()).toEqual(['take-visitor'])
    account.down = false
    win.dispatchEvent(new Event('online'))
    await idle()
    expect(complete().sort()).toEqual(['gen-offline', 'take-visitor'])
    expect(useCreationStore.getState().uploads).toEqual({})
  })

  it('the quota holds an upload with the server’s message until deleting a track frees room', async () => {
    track('remix-big', 800)
    await idle()
    expect(useCreationStore.getState().uploads['remix-big']).toMatchObject({
      status: 'quota',
      message: expect.stringMatching(/storage is full/),
    })
    deleteOwnTrack(useLibraryStore.getState().userTracks.find((t) => t.id === 'gen-offline')!)
    await idle()
    expect(account.deleted).toEqual(['gen-offline'])
    expect(complete().sort()).toEqual(['remix-big', 'take-visitor'])
    expect(useCreationStore.getState().usage).toMatchObject({ usedBytes: 900, items: 2 })
  })

  it('a track made on another device joins the Library, its audio comes from the account on first read', async () => {
    const elsewhere = new Blob([new Uint8Array(50)], { type: 'audio/wav' })
    account.audio.set('mix-elsewhere', elsewhere)
    account.rows.set('mix-elsewhere', {
      id: 'mix-elsewhere',
      kind: 'export',
      title: 'Made elsewhere',
      artist: 'Exported from the studio',
      image: '/images/covers/studio-mix.svg',
      seconds: 2,
      contentType: 'audio/wav',
      byteSize: 50,
      partCount: 1,
      uploadedAt: new Date().toISOString(),
      createdAt: new Date().toISOString(),
    })
    signIn(null)
    signIn('u1')
    await idle()
    expect(useLibraryStore.getState().userTracks.map((t) => t.id)).toContain('mix-elsewhere')
    expect(await getAudioBlob('mix-elsewhere')).toBe(elsewhere)
    // Nothing sent back: it is already in the account.
    expect(account.deleted).toEqual(['gen-offline'])
    expect(useCreationStore.getState().uploads).toEqual({})
  })
})
