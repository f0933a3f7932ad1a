import { usePlayerStore } from '../playback/player-store.ts'
import { useLibraryStore } from './library-store.ts'

/**
 * Durations have one source, the decoded file: when the player learns the length of a track of the
 * user's own (made, recorded or uploaded on this device) and the Library stored another (a track
 * saved before lengths were kept exactly, or measured on another decoding), the Library takes the
 * file's. Catalogue and published songs are not rewritten here: their lengths are generated from
 * the files (scripts/catalogue-codegen.ts) or stored by the server at publication.
 */
export function startDurationCorrection(): () => void {
  return usePlayerStore.subscribe((s, prev) => {
    // A new song's first duration is its stored one: only what the deck reports afterwards is the file's.
    if (!s.currentSong || s.currentSong !== prev.currentSong || s.duration <= 0 || s.duration === prev.duration) return
    useLibraryStore.getState().correctSeconds(s.currentSong.id, s.duration)
  })
}
