/**
 * Playlists (Favorite Tracks among them) a listener made "available offline": which ones, kept on
 * the device under 'cube-offline' (zustand persist), and how far saving each one's songs has come.
 * Saving keeps every song's audio and cover in the offline cache (src/lib/offline-media.ts), which
 * the service worker answers from when the network is off; a song added to such a playlist later is
 * saved too, and files no offline playlist needs any more are let go.
 *
 *   useOfflineStore                 { playlistIds, progress }
 *   makeAvailableOffline(id)        saves the playlist's songs now and keeps it saved
 *   stopKeepingOffline(id)          lets its files go (those other offline playlists still need stay)
 *   startOfflineSync()              follows the playlists (from src/app/start-services.ts)
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { Song } from '../../lib/catalogue/song.ts'
import { safeJsonStorage } from '../../lib/safe-persist-store.ts'
import { canKeepOffline, keepOffline, keptUrls, offlineUrl, OfflineSaveError, releaseOffline } from '../../lib/offline-media.ts'
import { usePlaylistStore } from './playlist-store.ts'

export interface OfflineProgress {
  /** Songs whose files are on the device. */
  saved: number
  total: number
  /** Saving is under way. */
  busy: boolean
  /** Why songs could not be saved, in words; null when all were. */
  problem: string | null
}

interface OfflineState {
  playlistIds: string[]
  progress: Record<string, OfflineProgress>
}

export const OFFLINE_STORAGE_KEY = 'cube-offline'

export const useOfflineStore = create<OfflineState>()(
  persist(() => ({ playlistIds: [] as string[], progress: {} as Record<string, OfflineProgress> }), {
    name: OFFLINE_STORAGE_KEY,
    storage: safeJsonStorage<Pick<OfflineState, 'playlistIds'>>(),
    partialize: (s) => ({ playlistIds: s.playlistIds }),
    merge: (persisted, current) => {
      const ids = (persisted as { playlistIds?: unknown } | undefined)?.playlistIds
      return { ...current, playlistIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [] }
    },
  }),
)

/** The files a song needs offline: its audio and its cover (none for media already on the device). */
export function songFiles(song: Song): string[] {
  return [offlineUrl(song.audioUrl), offlineUrl(song.image)].filter((url): url is string => url !== null)
}

const setProgress = (id: string, progress: OfflineProgress) =>
  useOfflineStore.setState((s) => ({ progress: { ...s.progress, [id]: progress } }))

const offlinePlaylists = () => {
  const ids = new Set(useOfflineStore.getState().playlistIds)
  return usePlaylistStore.getState().playlists.filter((p) => ids.has(p.id))
}

let running: Promise<void> = Promise.resolve()

/** Brings the offline cache in step with the offline playlists (one pass at a time). */
export function syncOffline(): Promise<void> {
  running = running.then(syncOnce, syncOnce)
  return running
}

async function syncOnce(): Promise<void> {
  const playlists = offlinePlaylists()
  const kept = await keptUrls()
  const needed = new Set(playlists.flatMap((p) => p.songs.flatMap(songFiles)))
  await releaseOffline([...kept].filter((url) => !needed.has(url)))
  for (const playlist of playlists) {
    const problems: string[] = []
    const onDevice = (song: Song) => songFiles(song).every((url) => kept.has(url))
    let saved = playlist.songs.filter(onDevice).length
    setProgress(playlist.id, { saved, total: playlist.songs.length, busy: saved < playlist.songs.length, problem: null })
    for (const song of playlist.songs) {
      if (onDevice(song)) continue
      try {
        for (const url of songFiles(song)) {
          if (kept.has(url)) continue
          await keepOffline(url)
          kept.add(url)
        }
        saved++
      } catch (error) {
        problems.push(`"${song.title}": ${error instanceof OfflineSaveError ? error.message : 'it could not be saved'}`)
      }
      setProgress(playlist.id, { saved, total: playlist.songs.length, busy: true, problem: null })
    }
    setProgress(playlist.id, {
      saved,
      total: playlist.songs.length,
      busy: false,
      problem: problems.length ? `${problems.length} not saved: ${problems.join('; ')}` : null,
    })
  }
}

/** Saves the playlist's songs on the device and keeps them saved as it changes. */
export function makeAvailableOffline(playlistId: string): Promise<void> {
  if (!canKeepOffline()) {
    setProgress(playlistId, { saved: 0, total: 0, busy: false, problem: 'This browser cannot keep songs for offline listening.' })
    return Promise.resolve()
  }
  useOfflineStore.setState((s) => ({ playlistIds: s.playlistIds.includes(playlistId) ? s.playlistIds : [...s.playlistIds, playlistId] }))
  return syncOffline()
}

/** No longer keeps the playlist offline; files another offline playlist needs stay. */
export function stopKeepingOffline(playlistId: string): Promise<void> {
  useOfflineStore.setState((s) => {
    const { [playlistId]: _gone, ...progress } = s.progress
    return { playlistIds: s.playlistIds.filter((id) => id !== playlistId), progress }
  })
  return syncOffline()
}

let stop: (() => void) | undefined

/** Follows the playlists: songs added to an offline playlist are saved, a deleted playlist's let go. */
export function startOfflineSync(): () => void {
  if (stop) return stop
  if (!canKeepOffline()) return () => undefined
  let previous = usePlaylistStore.getState().playlists
  const unsubscribe = usePlaylistStore.subscribe((s) => {
    if (s.playlists === previous) return
    previous = s.playlists
    const ids = useOfflineStore.getState().playlistIds
    const present = ids.filter((id) => s.playlists.some((p) => p.id === id))
    if (present.length !== ids.length) useOfflineStore.setState({ playlistIds: present })
    if (ids.length) void syncOffline()
  })
  if (useOfflineStore.getState().playlistIds.length) void syncOffline()
  stop = () => {
    unsubscribe()
    stop = undefined
  }
  return stop
}
