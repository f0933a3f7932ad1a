import { formatTime } from '../time-format.ts'

export interface Song {
  id: string
  title: string
  artist: string
  /** Display duration, 'm:ss': formatDuration(seconds), as the player's clock shows the same length. */
  duration: string
  /**
   * The length of the decoded audio file in seconds (to the millisecond), where it is known: the
   * catalogue's is generated from the shipped MP3s, a published song's is the server's, a track the
   * user made or uploaded has the length its decoding gave. The player starts from it and corrects
   * it from the file it plays.
   */
  seconds?: number
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
   * rules' default (src/domain/economy/reward-rules.ts).
   */
  reward?: number
  /**
   * Integrated loudness (ITU-R BS.1770-4, LUFS) and true peak (dBTP), measured once on the file
   * (public.songs.loudness_lufs / true_peak_dbtp); absent = not measured, played without gain.
   */
  loudnessLufs?: number
  truePeakDbtp?: number
  /**
   * The server's remix (public.remixes.id) a Library track was rendered from: publishing the track
   * records it, and the song page then names the source (Remix of …).
   */
  remixId?: string
}

/**
 * 'm:ss' for a length in seconds, counting whole seconds elapsed (1:25.7 is '1:25') exactly as the
 * player's clock does (src/lib/time-format.ts), so a list and the player never disagree by one.
 */
export const formatDuration = (seconds: number): string => formatTime(seconds)
