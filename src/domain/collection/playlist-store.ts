/**
 * Playlists and favourites, persisted in localStorage under 'cube-playlists' (zustand persist,
 * version 1). Stored state is validated on load: anything malformed falls back to the built-in
 * defaults (Favorite Tracks, Synthwave Mix) silently, so a damaged entry never breaks the page.
 *
 * Favourites are the songs of the built-in 'Favorite Tracks' playlist (id FAVORITES_ID), which
 * can be renamed but not deleted.
 *
 * Actions (each toasts its own outcome):
 *   createPlaylist(name): Playlist | null      renamePlaylist(id, name): boolean
 *   deletePlaylist(id): boolean                addSong(playlistId, song): boolean ('Already in playlist')
 *   removeSong(playlistId, songId): void       toggleFavourite(song): boolean (true = now a favourite)
 * Selectors: selectIsFavourite(songId)
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { notify } from '../../lib/notify.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { isSong } from './library-store.ts'
import { safeJsonStorage } from '../../lib/safe-persist-store.ts'

export interface Playlist {
  id: string
  name: string
  songs: Song[]
}

export const PLAYLISTS_STORAGE_KEY = 'cube-playlists'
export const FAVORITES_ID = 'favorites'
export const ALREADY_IN_PLAYLIST = 'Already in playlist'
/** Matches public.playlists' check (supabase/schemas/collection.sql): 1–80 characters after trimming. */
export const MAX_PLAYLIST_NAME = 80
export const PLAYLIST_NAME_TOO_LONG = `Playlist name must be at most ${MAX_PLAYLIST_NAME} characters`

const byId = (id: string) => SAMPLE_SONGS.find((s) => s.id === id)!

export function defaultPlaylists(): Playlist[] {
  return [
    // Nothing is liked until the listener likes it: a visitor never sees a like they did not give.
    { id: FAVORITES_ID, name: 'Favorite Tracks', songs: [] },
    { id: 'synthwave-mix', name: 'Synthwave Mix', songs: [byId('neon-drift'), byId('circuit-breaker'), byId('low-tide-memory')] },
  ]
}

interface PlaylistState {
  playlists: Playlist[]
  createPlaylist: (name: string) => Playlist | null
  renamePlaylist: (id: string, name: string) => boolean
  deletePlaylist: (id: string) => boolean
  addSong: (playlistId: string, song: Song) => boolean
  removeSong: (playlistId: string, songId: string) => void
  toggleFavourite: (song: Song) => boolean
}

export const PLAYLIST_NAME_EMPTY = 'Playlist name cannot be empty'
const tidyName = (name: string) => (typeof name === 'string' ? name.trim().replace(/\s+/g, ' ') : '')

/** Why a playlist cannot have this name (shown beside the field as well as in a toast); null when it can. */
export function playlistNameProblem(name: string): string | null {
  const n = tidyName(name)
  if (!n) return PLAYLIST_NAME_EMPTY
  if (n.length > MAX_PLAYLIST_NAME) return PLAYLIST_NAME_TOO_LONG
  return null
}

function cleanName(name: string): string | null {
  const problem = playlistNameProblem(name)
  if (problem) {
    notify.error(problem)
    return null
  }
  return tidyName(name)
}

const newId = () => `pl-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

function isPlaylist(raw: unknown): raw is Playlist {
  if (!raw || typeof raw !== 'object') return false
  const p = raw as Record<string, unknown>
  return (
    typeof p.id === 'string' &&
    p.id.length > 0 &&
    typeof p.name === 'string' &&
    p.name.trim().length > 0 &&
    Array.isArray(p.songs) &&
    p.songs.every(isSong)
  )
}

/** Valid stored playlists, de-duplicated, with Favorite Tracks guaranteed; undefined = use defaults. */
export function validatePlaylists(raw: unknown): Playlist[] | undefined {
  if (!Array.isArray(raw) || !raw.every(isPlaylist)) return undefined
  const seen = new Set<string>()
  const out: Playlist[] = []
  for (const p of raw) {
    if (seen.has(p.id)) return undefined
    seen.add(p.id)
    const ids = new Set<string>()
    out.push({ id: p.id, name: p.name, songs: p.songs.filter((s) => !ids.has(s.id) && ids.add(s.id)) })
  }
  if (!seen.has(FAVORITES_ID)) out.unshift(defaultPlaylists()[0]!)
  return out
}

export const usePlaylistStore = create<PlaylistState>()(
  persist(
    (set, get) => {
      const update = (id: string, fn: (p: Playlist) => Playlist) =>
        set({ playlists: get().playlists.map((p) => (p.id === id ? fn(p) : p)) })
      return {
        playlists: defaultPlaylists(),
        createPlaylist: (name) => {
          const n = cleanName(name)
          if (!n) return null
          const playlist: Playlist = { id: newId(), name: n, songs: [] }
          set({ playlists: [...get().playlists, playlist] })
          notify.success(`Created playlist "${n}"`)
          return playlist
        },
        renamePlaylist: (id, name) => {
          // Favourites are the likes: their playlist keeps its name everywhere it is shown.
          if (id === FAVORITES_ID) {
            notify.error('Favorite Tracks cannot be renamed')
            return false
          }
          const n = cleanName(name)
          if (!n || !get().playlists.some((p) => p.id === id)) return false
          update(id, (p) => ({ ...p, name: n }))
          return true
        },
        deletePlaylist: (id) => {
          if (id === FAVORITES_ID) {
            notify.error('Favorite Tracks cannot be deleted')
            return false
          }
          const target = get().playlists.find((p) => p.id === id)
          if (!target) return false
          set({ playlists: get().playlists.filter((p) => p.id !== id) })
          notify.success(`Deleted playlist "${target.name}"`)
          return true
        },
        addSong: (playlistId, song) => {
          const target = get().playlists.find((p) => p.id === playlistId)
          if (!target || !isSong(song)) return false
          if (target.songs.some((s) => s.id === song.id)) {
            notify(ALREADY_IN_PLAYLIST, { id: ALREADY_IN_PLAYLIST })
            return false
          }
          update(playlistId, (p) => ({ ...p, songs: [...p.songs, song] }))
          notify.success(`Added "${song.title}" to ${target.name}`)
          return true
        },
        removeSong: (playlistId, songId) => update(playlistId, (p) => ({ ...p, songs: p.songs.filter((s) => s.id !== songId) })),
        toggleFavourite: (song) => {
          const fav = get().playlists.find((p) => p.id === FAVORITES_ID)
          const isFav = !!fav?.songs.some((s) => s.id === song.id)
          update(FAVORITES_ID, (p) => ({ ...p, songs: isFav ? p.songs.filter((s) => s.id !== song.id) : [...p.songs, song] }))
          return !isFav
        },
      }
    },
    {
      name: PLAYLISTS_STORAGE_KEY,
      version: 1,
      storage: safeJsonStorage<Pick<PlaylistState, 'playlists'>>(),
      partialize: (s) => ({ playlists: s.playlists }),
      // No older versions exist; anything else on disk is replaced by the defaults.
      migrate: () => ({ playlists: defaultPlaylists() }),
      merge: (persisted, current) => ({
        ...current,
        playlists: validatePlaylists((persisted as { playlists?: unknown } | undefined)?.playlists) ?? current.playlists,
      }),
    },
  ),
)

export const selectIsFavourite = (songId: string) => (s: Pick<PlaylistState, 'playlists'>) =>
  !!s.playlists.find((p) => p.id === FAVORITES_ID)?.songs.some((x) => x.id === songId)
