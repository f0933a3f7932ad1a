// Pure rules for keeping the local playlist store and the server's playlists in step:
// what a visitor brings along on sign-in, what a local edit means on the server, and how the
// server's rows become the store's playlists again.
import type { Song } from '../../lib/catalogue/song.ts'
import type { Playlist } from './playlist-store.ts'
import type { ServerPlaylist } from '../../backend/playlists.ts'

export const FAVOURITES_LIST_ID = 'favorites'

const ids = (p: Playlist | undefined) => (p ? p.songs.map((s) => s.id) : [])
const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i])
const norm = (name: string) => name.trim().toLowerCase()

/** A built-in sample playlist exactly as shipped: not the visitor's, so it never reaches an account. */
const isUntouchedSample = (p: Playlist, defaults: readonly Playlist[]) => {
  const d = defaults.find((x) => x.id === p.id)
  return d !== undefined && d.name === p.name && sameIds(ids(d), ids(p))
}

/**
 * What a signing-in user's lists show until their account's arrive: the visitor's own playlists
 * and likes (they are merged into the account), without the untouched samples, which the merge
 * leaves out (an untouched Favorite Tracks stays, empty). Showing the samples meanwhile would
 * offer hearts that turn off a moment later, and a click in between would do the opposite.
 */
export function withoutSamples(local: readonly Playlist[], defaults: readonly Playlist[]): Playlist[] {
  return local.flatMap((p) => (!isUntouchedSample(p, defaults) ? [p] : p.id === FAVOURITES_LIST_ID ? [{ ...p, songs: [] }] : []))
}

export interface VisitorMergePlan {
  /** New server playlists (name, songs in order). */
  create: { name: string; songIds: string[] }[]
  /** Songs to append to an existing server playlist of the same name. */
  extend: { serverId: string; songIds: string[] }[]
  /** Songs to add to the server's favourites. */
  favourites: string[]
}

/**
 * What a visitor's local playlists add to their account. The built-in sample playlists, untouched,
 * are not the visitor's and are left out; a local playlist whose name matches one on the server
 * is merged into it rather than duplicated.
 */
export function planVisitorMerge(
  local: readonly Playlist[],
  defaults: readonly Playlist[],
  server: readonly ServerPlaylist[],
  serverFavourites: readonly string[],
): VisitorMergePlan {
  const plan: VisitorMergePlan = { create: [], extend: [], favourites: [] }
  const untouched = (p: Playlist) => isUntouchedSample(p, defaults)
  const byName = new Map(server.map((s) => [norm(s.name), s]))
  for (const p of local) {
    if (untouched(p)) continue
    if (p.id === FAVOURITES_LIST_ID) {
      const have = new Set(serverFavourites)
      plan.favourites = ids(p).filter((id) => !have.has(id))
      continue
    }
    const match = byName.get(norm(p.name))
    if (match) {
      const have = new Set(match.songIds)
      const missing = ids(p).filter((id) => !have.has(id))
      if (missing.length) plan.extend.push({ serverId: match.id, songIds: missing })
    } else {
      plan.create.push({ name: p.name, songIds: ids(p) })
      byName.set(norm(p.name), { id: '', name: p.name, created_at: '', songIds: ids(p) })
    }
  }
  return plan
}

/** The store's playlists as the server has them: Favourites first, then the user's playlists. */
export function playlistsFromServer(
  server: readonly ServerPlaylist[],
  favourites: readonly string[],
  songById: (id: string) => Song | undefined,
  favouritesName = 'Favorite Tracks',
): Playlist[] {
  const songs = (list: readonly string[]) => list.map(songById).filter((s): s is Song => s !== undefined)
  return [
    { id: FAVOURITES_LIST_ID, name: favouritesName, songs: songs(favourites) },
    ...server.map((p) => ({ id: p.id, name: p.name, songs: songs(p.songIds) })),
  ]
}

export type PlaylistOp =
  | { kind: 'create'; localId: string; name: string; songIds: string[] }
  | { kind: 'rename'; localId: string; name: string }
  | { kind: 'delete'; localId: string }
  | { kind: 'add-song'; localId: string; songId: string; position: number }
  | { kind: 'remove-song'; localId: string; songId: string }
  | { kind: 'favourite'; songId: string; on: boolean }

/** The server calls that turn the store's previous playlists into its next ones. */
export function diffPlaylists(prev: readonly Playlist[], next: readonly Playlist[]): PlaylistOp[] {
  const ops: PlaylistOp[] = []
  const before = new Map(prev.map((p) => [p.id, p]))
  const after = new Map(next.map((p) => [p.id, p]))
  for (const p of next) {
    const old = before.get(p.id)
    if (p.id === FAVOURITES_LIST_ID) {
      const had = new Set(ids(old))
      const has = new Set(ids(p))
      for (const id of has) if (!had.has(id)) ops.push({ kind: 'favourite', songId: id, on: true })
      for (const id of had) if (!has.has(id)) ops.push({ kind: 'favourite', songId: id, on: false })
      continue
    }
    if (!old) {
      ops.push({ kind: 'create', localId: p.id, name: p.name, songIds: ids(p) })
      continue
    }
    if (old.name !== p.name) ops.push({ kind: 'rename', localId: p.id, name: p.name })
    const had = new Set(ids(old))
    const has = new Set(ids(p))
    for (const id of had) if (!has.has(id)) ops.push({ kind: 'remove-song', localId: p.id, songId: id })
    p.songs.forEach((s, position) => {
      if (!had.has(s.id)) ops.push({ kind: 'add-song', localId: p.id, songId: s.id, position })
    })
  }
  for (const p of prev) if (p.id !== FAVOURITES_LIST_ID && !after.has(p.id)) ops.push({ kind: 'delete', localId: p.id })
  return ops
}
