export interface Song {
  id: string
  title: string
  artist: string
  /** Display duration, 'm:ss'. */
  duration: string
  /** Cover image URL (same-origin: /images/... or an object URL). */
  image: string
  /**
   * Same-origin URL of the audio ('/audio/...'), or 'idb:<id>' for audio the user made or uploaded,
   * kept in IndexedDB and resolved by the player (src/lib/user-audio-store.ts).
   */
  audioUrl: string
  genre?: string
  /** The mood a generated track was made with (e.g. 'upbeat'); shown as a tag on Now Playing. */
  mood?: string
  /**
   * CUBE credited per qualifying listen, as generated from the catalogue's source; the server's
   * figure (public.songs.reward) wins once it has answered, and songs without one get the reward
   * rules' default (src/features/listen/reward-rules.ts).
   */
  reward?: number
  /**
   * Integrated loudness (ITU-R BS.1770-4, LUFS) and true peak (dBTP), measured once on the file
   * (public.songs.loudness_lufs / true_peak_dbtp); absent = not measured, played without gain.
   */
  loudnessLufs?: number
  truePeakDbtp?: number
}

export const formatDuration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
