// Playlists and favourites live on the server for signed-in users. The player's playlist store
// stays the one the UI reads and edits; this module mirrors it: on sign-in it merges what a
// visitor made locally into the account and loads the account's playlists into the store, then
// sends every local edit to the server, and on sign-out it puts the sample playlists back.
// Every edit is written down on the device before it is sent and crossed off once the server has
// it: edits made offline, or cut off by a reload, go out in order when the network is back or the
// next page loads, before the account's playlists are read again, so the server's older copy never
// overwrites them.
import { notify } from '../../lib/notify.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { defaultPlaylists, usePlaylistStore, type Playlist } from './playlist-store.ts'
import { useLibraryStore } from './library-store.ts'
import { buildSongIndex, usePublishedSongs } from './song-index.ts'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { useSessionStore } from '../session/session-store.ts'
import { onSignedIn } from '../session/session-sync.ts'
import {
  diffPlaylists,
  FAVOURITES_LIST_ID,
  planVisitorMerge,
  playlistsFromServer,
  withoutSamples,
  type PlaylistOp,
} from './playlist-merge.ts'
import { errorMessage, isNetworkFailure } from '../../lib/error-message.ts'
import * as api from '../../backend/playlists.ts'
import { ownProfileChanged } from '../profile/profile-keys.ts'

/** Whose server playlists the persisted store currently mirrors (absent: a visitor's own). */
export const PLAYLIST_OWNER_KEY = 'cube-playlists-owner'

let activeUser: string | null = null
let applying = false
/** Local playlist id → server playlist id (equal for playlists loaded from the server). */
const serverId = new Map<string, string>()
let queue: Promise<void> = Promise.resolve()

/**
 * Edits the server has not confirmed yet, oldest first, kept across reloads with their account:
 * written before each is sent (a page closed mid-request loses nothing) and waiting while offline.
 */
export const PLAYLIST_PENDING_KEY = 'cube-playlist-pending'
interface Pending {
  userId: string
  ops: PlaylistOp[]
}
const readPending = (): Pending | null => {
  try {
    const raw = JSON.parse(localStorage.getItem(PLAYLIST_PENDING_KEY) ?? 'null') as Pending | null
    return raw && typeof raw.userId === 'string' && Array.isArray(raw.ops) ? raw : null
  } catch {
    return null
  }
}
const writePending = (pending: Pending | null) => {
  try {
    if (pending?.ops.length) localStorage.setItem(PLAYLIST_PENDING_KEY, JSON.stringify(pending))
    else localStorage.removeItem(PLAYLIST_PENDING_KEY)
  } catch {
    /* private mode: they wait in memory for this page only */
  }
}
let pending: Pending | null = null
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const owner = () => {
  try {
    return localStorage.getItem(PLAYLIST_OWNER_KEY)
  } catch {
    return null
  }
}
const setOwner = (userId: string | null) => {
  try {
    if (userId) localStorage.setItem(PLAYLIST_OWNER_KEY, userId)
    else localStorage.removeItem(PLAYLIST_OWNER_KEY)
  } catch {
    /* private mode: the next sign-in merges again, which adds nothing twice */
  }
}

function replaceStore(playlists: Playlist[]) {
  applying = true
  try {
    usePlaylistStore.setState({ playlists })
  } finally {
    applying = false
  }
}

function songLookup(extra: readonly Playlist[]): (id: string) => Song | undefined {
  const songs = new Map<string, Song>()
  for (const p of extra) for (const s of p.songs) songs.set(s.id, s)
  // Any song of the index (all 45 catalogue songs, published ones, the user's own): a playlist may hold each.
  const index = buildSongIndex({
    catalogue: CATALOGUE_SONGS,
    published: usePublishedSongs.getState().rows,
    own: useLibraryStore.getState().userTracks,
  })
  for (const { song } of index) songs.set(song.id, song)
  return (id) => songs.get(id)
}

function reportFailure(error: unknown) {
  console.error('playlist sync failed', error)
  notify.error('Could not save playlist changes', {
    id: 'playlist-sync',
    description: errorMessage(error),
  })
}

async function syncOnSignIn(userId: string) {
  const local = usePlaylistStore.getState().playlists
  const visitorData = owner() === null
  let [server, favourites] = await Promise.all([api.fetchPlaylists(userId), api.fetchFavourites(userId)])
  if (visitorData) {
    const plan = planVisitorMerge(local, defaultPlaylists(), server, favourites)
    for (const p of plan.create) {
      const created = await api.createPlaylist(p.name)
      for (const [position, songId] of p.songIds.entries()) await api.addPlaylistSong(created.id, songId, position)
    }
    for (const e of plan.extend) {
      const base = server.find((s) => s.id === e.serverId)?.songIds.length ?? 0
      for (const [i, songId] of e.songIds.entries()) await api.addPlaylistSong(e.serverId, songId, base + i)
    }
    for (const songId of plan.favourites) await api.addFavourite(songId)
    if (plan.create.length || plan.extend.length || plan.favourites.length) {
      ;[server, favourites] = await Promise.all([api.fetchPlaylists(userId), api.fetchFavourites(userId)])
    }
  }
  if (activeUser !== userId) return
  if (usePlaylistStore.getState().playlists !== local) {
    // Edited while the account was being read (offline, the read waits for the network): those
    // edits are queued behind this sync, so read the account again once they have gone out.
    queue = queue.then(() => syncOnSignIn(userId))
    return
  }
  const favName = local.find((p) => p.id === FAVOURITES_LIST_ID)?.name
  serverId.clear()
  for (const p of server) serverId.set(p.id, p.id)
  replaceStore(playlistsFromServer(server, favourites, songLookup(local), favName))
  setOwner(userId)
  // Views that read playlists from the server (the profile) reread them now the merge is in.
  void ownProfileChanged(userId)
}

async function apply(op: PlaylistOp) {
  switch (op.kind) {
    case 'favourite':
      return op.on ? api.addFavourite(op.songId) : api.removeFavourite(op.songId)
    case 'create': {
      const created = await api.createPlaylist(op.name)
      serverId.set(op.localId, created.id)
      for (const [position, songId] of op.songIds.entries()) await api.addPlaylistSong(created.id, songId, position)
      return
    }
  }
  // A playlist loaded from the server keeps its server id (an edit waiting since before a reload
  // finds no mapping yet); one whose creation failed has no server row to change.
  const id = serverId.get(op.localId) ?? (UUID.test(op.localId) ? op.localId : undefined)
  if (!id) return
  switch (op.kind) {
    case 'rename':
      return api.renamePlaylist(id, op.name)
    case 'delete':
      serverId.delete(op.localId)
      return api.deletePlaylist(id)
    case 'add-song':
      return api.addPlaylistSong(id, op.songId, op.position)
    case 'remove-song':
      return api.removePlaylistSong(id, op.songId)
  }
}

function sayKeptOffline() {
  notify('Playlist changes saved on this device', {
    id: 'playlist-sync',
    description: 'You are offline: they reach your account when the connection is back.',
  })
}

/** Writes `op` down before it is sent, so neither a reload nor the network can lose it. */
function remember(userId: string, op: PlaylistOp) {
  pending ??= readPending()
  if (!pending || pending.userId !== userId) pending = { userId, ops: [] }
  pending.ops.push(op)
  writePending(pending)
}

/**
 * Sends the edits written down for `userId`, oldest first, each crossed off once the server has it
 * (sending one again is harmless: each is a state, "liked", "in the playlist", "named so"). A
 * creation is the exception, since each one makes a new playlist: it is crossed off as it goes out,
 * at most once. A network failure stops it with the rest kept (and rethrows); the 'online' event
 * or the next page load sends them.
 */
async function sendPending(userId: string) {
  pending ??= readPending()
  if (!pending || pending.userId !== userId) return
  while (pending.ops.length) {
    const op = pending.ops[0]!
    const once = op.kind === 'create'
    if (once) {
      pending.ops.shift()
      writePending(pending)
    }
    try {
      await apply(op)
    } catch (error) {
      if (isNetworkFailure(error)) {
        if (once) pending.ops.unshift(op)
        writePending(pending)
        sayKeptOffline()
        throw error
      }
      reportFailure(error)
    }
    if (!once) {
      pending.ops.shift()
      writePending(pending)
    }
  }
}

/** A network failure has been said already (the edits wait); anything else is reported. */
const reportUnlessOffline = (error: unknown) => {
  if (!isNetworkFailure(error)) reportFailure(error)
}

/** Resolves once every edit made so far has reached the server (tests and sign-out wait on it). */
export function playlistSyncIdle(): Promise<void> {
  return queue
}

let started = false

export function startPlaylistSync(): void {
  if (started) return
  started = true
  onSignedIn(async (userId) => {
    // A visitor's samples are not the account's: hidden at once, before the account is read.
    if (owner() === null) replaceStore(withoutSamples(usePlaylistStore.getState().playlists, defaultPlaylists()))
    activeUser = userId
    const run = queue.then(() => sendPending(userId)).then(() => syncOnSignIn(userId))
    queue = run.catch(reportFailure)
    await queue
  })
  usePlaylistStore.subscribe((state, prev) => {
    if (applying || state.playlists === prev.playlists) return
    // While a page load restores the session, the lists shown are the last signed-in account's:
    // an edit then is that account's and waits for the sign-in, which sends it before reading the
    // account (dropping it let the read put the old list back under the user's click).
    const userId = activeUser ?? owner()
    if (!userId) return
    const ops = diffPlaylists(prev.playlists, state.playlists)
    if (!ops.length) return
    for (const op of ops) remember(userId, op)
    if (activeUser) queue = queue.then(() => sendPending(userId)).catch(reportUnlessOffline)
  })
  if (typeof window !== 'undefined')
    window.addEventListener('online', () => {
      const userId = activeUser
      if (userId) queue = queue.then(() => sendPending(userId)).catch(reportUnlessOffline)
    })
  useSessionStore.subscribe((state, prev) => {
    // Logging out, or a page opening without a session (expired, or signed out in another tab).
    if (state.status === 'signed-out' && prev.status !== 'signed-out') {
      activeUser = null
      serverId.clear()
      // The account's playlists stay on the server; this browser goes back to the samples.
      if (owner() !== null) {
        setOwner(null)
        replaceStore(defaultPlaylists())
      }
    }
  })
}
