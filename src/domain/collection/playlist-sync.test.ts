import { beforeAll, describe, expect, it, vi } from 'vitest'

// Edits made while the server cannot be reached wait on the device and go out, in order, when the
// network is back and before the account's playlists are read again: nothing made offline is lost.
const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => ({
  notify: Object.assign((m: string) => void toasts.push(m), { error: (m: string) => void toasts.push(`error:${m}`), success: () => {} }),
}))

type ServerList = { id: string; name: string; created_at: string; songIds: string[] }
const server = { lists: [] as ServerList[], favourites: [] as string[], down: false, sent: [] as string[] }
const reach = () => {
  if (server.down) throw new TypeError('Failed to fetch')
}
vi.mock('../../backend/playlists.ts', () => ({
  fetchPlaylists: async () => (reach(), structuredClone(server.lists)),
  fetchFavourites: async () => (reach(), [...server.favourites]),
  createPlaylist: async (name: string) => {
    reach()
    const list = {
      id: `00000000-0000-4000-8000-00000000000${server.lists.length + 1}`,
      name,
      created_at: new Date().toISOString(),
      songIds: [],
    }
    server.lists.push(list)
    server.sent.push(`create ${name}`)
    return structuredClone(list)
  },
  addPlaylistSong: async (id: string, songId: string) => {
    reach()
    server.lists.find((l) => l.id === id)!.songIds.push(songId)
    server.sent.push(`add ${songId}`)
  },
  addFavourite: async (songId: string) => {
    reach()
    server.favourites.push(songId)
    server.sent.push(`favourite ${songId}`)
  },
  removeFavourite: async () => reach(),
  renamePlaylist: async () => reach(),
  deletePlaylist: async () => reach(),
  removePlaylistSong: async () => reach(),
}))
let signIn: (userId: string) => Promise<void> = async () => {}
vi.mock('../session/session-sync.ts', () => ({
  onSignedIn: (listener: (userId: string) => Promise<void>) => {
    signIn = listener
    return () => {}
  },
}))

// The 'online' event needs a window, and edits are written to localStorage: the test's Node has neither.
const win = new EventTarget()
vi.stubGlobal('window', win)
const stored = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (k: string) => stored.get(k) ?? null,
  setItem: (k: string, v: string) => void stored.set(k, String(v)),
  removeItem: (k: string) => void stored.delete(k),
})

const { startPlaylistSync, playlistSyncIdle } = await import('./playlist-sync.ts')
const { usePlaylistStore, FAVORITES_ID } = await import('./playlist-store.ts')
const { SAMPLE_SONGS } = await import('../../lib/catalogue/sample-songs.ts')
const [a, b, c] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]
const names = () => usePlaylistStore.getState().playlists.map((p) => `${p.name}: ${p.songs.map((s) => s.id).join(',')}`)

beforeAll(async () => {
  startPlaylistSync()
  server.favourites = [a.id]
  await signIn('u1')
})

describe('playlist sync offline', () => {
  it('keeps edits made offline, sends them in order when the network is back, and reads the account after', async () => {
    expect(names()).toEqual([`Favorite Tracks: ${a.id}`])
    server.down = true
    usePlaylistStore.getState().toggleFavourite(b)
    const created = usePlaylistStore.getState().createPlaylist('Night Drive')!
    usePlaylistStore.getState().addSong(created.id, c)
    await playlistSyncIdle()
    expect(server.sent).toEqual([])
    expect(toasts.at(-1)).toBe('Playlist changes saved on this device')
    expect(toasts.some((t) => t.startsWith('error:'))).toBe(false)

    // Back online: a sign-in sync (the session refreshed) sends what waited before reading the account.
    server.down = false
    await signIn('u1')
    await playlistSyncIdle()
    expect(server.sent).toEqual([`favourite ${b.id}`, 'create Night Drive', `add ${c.id}`])
    expect(names()).toEqual([`Favorite Tracks: ${a.id},${b.id}`, `Night Drive: ${c.id}`])
    expect(usePlaylistStore.getState().playlists.find((p) => p.id === FAVORITES_ID)?.songs).toHaveLength(2)
  })

  it("the 'online' event sends what waited, once", async () => {
    server.sent = []
    server.down = true
    usePlaylistStore.getState().toggleFavourite(c)
    await playlistSyncIdle()
    server.down = false
    win.dispatchEvent(new Event('online'))
    await playlistSyncIdle()
    win.dispatchEvent(new Event('online'))
    await playlistSyncIdle()
    expect(server.sent).toEqual([`favourite ${c.id}`])
  })
})

describe('playlist sync while the account is being read', () => {
  it('an edit made during the read is not overwritten by the older copy: the account is read again after it', async () => {
    server.sent = []
    let release: () => void = () => {}
    const slow = new Promise<void>((resolve) => (release = resolve))
    const api = await import('../../backend/playlists.ts')
    const fetchLists = vi.spyOn(api, 'fetchPlaylists').mockImplementationOnce(async () => {
      await slow
      return structuredClone(server.lists)
    })
    const signingIn = signIn('u1')
    await new Promise((r) => setTimeout(r, 0))
    usePlaylistStore.getState().toggleFavourite(SAMPLE_SONGS[3]!)
    release()
    await signingIn
    await playlistSyncIdle()
    await playlistSyncIdle()
    expect(server.sent).toEqual([`favourite ${SAMPLE_SONGS[3]!.id}`])
    expect(
      usePlaylistStore
        .getState()
        .playlists.find((p) => p.id === FAVORITES_ID)!
        .songs.map((s) => s.id),
    ).toContain(SAMPLE_SONGS[3]!.id)
    fetchLists.mockRestore()
  })
})

describe('playlist sync across a reload', () => {
  it('an edit whose request was cut off by leaving the page is sent when the next page loads', async () => {
    server.sent = []
    const api = await import('../../backend/playlists.ts')
    // The request never answers: the page is gone before it does.
    const hang = vi.spyOn(api, 'addFavourite').mockImplementationOnce(() => new Promise<void>(() => {}))
    usePlaylistStore.getState().toggleFavourite(SAMPLE_SONGS[4]!)
    await new Promise((r) => setTimeout(r, 0))
    expect(server.sent).toEqual([])
    expect(stored.get('cube-playlist-pending')).toContain(SAMPLE_SONGS[4]!.id)
    hang.mockRestore()

    // The next page: fresh modules, the same device.
    vi.resetModules()
    const next = await import('./playlist-sync.ts')
    next.startPlaylistSync()
    await signIn('u1')
    await next.playlistSyncIdle()
    expect(server.sent).toEqual([`favourite ${SAMPLE_SONGS[4]!.id}`])
    expect(stored.has('cube-playlist-pending')).toBe(false)
  })
})

describe('playlist sync during a page load', () => {
  it('an edit made before the session is restored is the shown account’s: kept, sent at sign-in, never overwritten', async () => {
    server.sent = []
    // The next page: fresh modules; the store shows u1's lists (their owner is recorded) before the session is back.
    vi.resetModules()
    const next = await import('./playlist-sync.ts')
    const store = (await import('./playlist-store.ts')).usePlaylistStore
    next.startPlaylistSync()
    const { CATALOGUE_SONGS } = await import('../../lib/catalogue/sample-songs.ts')
    const song = CATALOGUE_SONGS.find((s) => !SAMPLE_SONGS.some((x) => x.id === s.id))!
    store.getState().toggleFavourite(song)
    await new Promise((r) => setTimeout(r, 0))
    expect(server.sent).toEqual([])
    expect(stored.get('cube-playlist-pending')).toContain(song.id)
    await signIn('u1')
    await next.playlistSyncIdle()
    expect(server.sent).toEqual([`favourite ${song.id}`])
    expect(
      store
        .getState()
        .playlists.find((p) => p.id === FAVORITES_ID)!
        .songs.map((s) => s.id),
    ).toContain(song.id)
  })
})
