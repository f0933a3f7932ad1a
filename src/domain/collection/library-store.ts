/**
 * The user's library: tracks they generated, recorded or uploaded (persisted in localStorage under
 * 'cube-library'; their audio lives in IndexedDB, see src/lib/user-audio-store.ts), plus the view
 * mode of the Library page. The five sample songs are always part of the library.
 *
 *   useLibraryStore.getState().addTrack(song)     — song.audioUrl 'idb:<id>' after putAudio(id, blob);
 *                                                   re-adding the same id replaces it. Invalid → false.
 *   useLibraryStore.getState().removeTrack(id)    — also deletes its stored audio
 *   useLibraryStore.getState().correctSeconds(id, s) — the decoded file's length replaces a stored one
 *                                                   that differs by more than a frame (0.05 s)
 *   selectAllSongs(state): Song[]                 — samples first, then user tracks (newest first)
 */
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { formatDuration, type Song } from '../../lib/catalogue/song.ts'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { deleteAudio, isIdbAudioUrl, parseIdbAudioUrl } from '../../lib/user-audio-store.ts'
import { safeJsonStorage } from '../../lib/safe-persist-store.ts'

export type LibraryView = 'grid' | 'list'

export const LIBRARY_STORAGE_KEY = 'cube-library'
/** A stored length within one MP3 frame (≈0.026 s) of the decoded file's is the file's own. */
export const DURATION_TOLERANCE = 0.05

interface LibraryState {
  userTracks: Song[]
  view: LibraryView
  addTrack: (song: Song) => boolean
  removeTrack: (id: string) => void
  correctSeconds: (id: string, seconds: number) => void
  setView: (view: LibraryView) => void
}

const str = (v: unknown): v is string => typeof v === 'string'

/** A stored or passed-in song is trusted only when every field has the right shape. */
export function isSong(raw: unknown): raw is Song {
  if (!raw || typeof raw !== 'object') return false
  const s = raw as Record<string, unknown>
  return (
    str(s.id) &&
    s.id.length > 0 &&
    str(s.title) &&
    str(s.artist) &&
    str(s.duration) &&
    str(s.image) &&
    str(s.audioUrl) &&
    (s.genre === undefined || str(s.genre)) &&
    (s.mood === undefined || str(s.mood)) &&
    (s.seconds === undefined || (typeof s.seconds === 'number' && Number.isFinite(s.seconds) && s.seconds >= 0)) &&
    (s.reward === undefined || (typeof s.reward === 'number' && Number.isFinite(s.reward))) &&
    (s.remixId === undefined || (str(s.remixId) && s.remixId.length <= 100))
  )
}

export const useLibraryStore = create<LibraryState>()(
  persist(
    (set, get) => ({
      userTracks: [],
      view: 'grid',
      addTrack: (song) => {
        if (!isSong(song)) return false
        set({ userTracks: [song, ...get().userTracks.filter((t) => t.id !== song.id)] })
        return true
      },
      removeTrack: (id) => {
        const track = get().userTracks.find((t) => t.id === id)
        set({ userTracks: get().userTracks.filter((t) => t.id !== id) })
        if (track && isIdbAudioUrl(track.audioUrl)) {
          void Promise.resolve()
            .then(() => deleteAudio(parseIdbAudioUrl(track.audioUrl)))
            .catch((err: unknown) => console.warn('[library] could not delete stored audio', err))
        }
      },
      correctSeconds: (id, seconds) => {
        if (!Number.isFinite(seconds) || seconds <= 0) return
        const track = get().userTracks.find((t) => t.id === id)
        if (!track || (track.seconds !== undefined && Math.abs(track.seconds - seconds) <= DURATION_TOLERANCE)) return
        const fixed = { ...track, seconds: Math.round(seconds * 1000) / 1000, duration: formatDuration(seconds) }
        set({ userTracks: get().userTracks.map((t) => (t.id === id ? fixed : t)) })
      },
      setView: (view) => set({ view: view === 'list' ? 'list' : 'grid' }),
    }),
    {
      name: LIBRARY_STORAGE_KEY,
      version: 1,
      storage: safeJsonStorage<Pick<LibraryState, 'userTracks' | 'view'>>(),
      partialize: (s) => ({ userTracks: s.userTracks, view: s.view }),
      migrate: () => ({ userTracks: [], view: 'grid' as LibraryView }),
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<Record<keyof LibraryState, unknown>>
        const userTracks = Array.isArray(p.userTracks) ? p.userTracks.filter(isSong) : current.userTracks
        const view: LibraryView = p.view === 'list' ? 'list' : 'grid'
        return { ...current, userTracks, view }
      },
    },
  ),
)

const sampleIds = new Set(SAMPLE_SONGS.map((s) => s.id))

export const selectAllSongs = (s: Pick<LibraryState, 'userTracks'>): Song[] => [
  ...SAMPLE_SONGS,
  ...s.userTracks.filter((t) => !sampleIds.has(t.id)),
]
