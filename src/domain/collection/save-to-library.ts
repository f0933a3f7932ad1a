import { formatDuration } from '../../lib/catalogue/song.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { idbAudioUrl, putAudio } from '../../lib/user-audio-store.ts'
import { useLibraryStore } from './library-store.ts'

export const MADE_COVER = '/images/covers/ai-generated.svg'

/**
 * Keeps audio the user made (a studio export, a microphone take, a remix) as a Library track, so
 * it can be played, published, minted or remixed like any other.
 */
export async function saveAudioToLibrary(entry: {
  idPrefix: string
  title: string
  artist: string
  blob: Blob
  seconds: number
  image?: string
}): Promise<Song> {
  const id = `${entry.idPrefix}-${crypto.randomUUID()}`
  await putAudio(id, entry.blob)
  const song: Song = {
    id,
    title: entry.title.slice(0, 120),
    artist: entry.artist,
    duration: formatDuration(entry.seconds),
    image: entry.image ?? MADE_COVER,
    audioUrl: idbAudioUrl(id),
  }
  if (!useLibraryStore.getState().addTrack(song)) throw new Error('The Library refused the track')
  return song
}
