import { formatDuration } from '../../lib/catalogue/song.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { idbAudioUrl, putAudio } from '../../lib/user-audio-store.ts'
import { useLibraryStore } from './library-store.ts'

/** Covers that tell the truth about where a track came from (not "AI generated" for a microphone take). */
export const ORIGIN_COVERS = {
  generated: '/images/covers/ai-generated.svg',
  export: '/images/covers/studio-mix.svg',
  recording: '/images/covers/mic-take.svg',
  upload: '/images/covers/uploaded.svg',
} as const
export type TrackOrigin = keyof typeof ORIGIN_COVERS | 'remix'

/** "Night Drive (Mix)", or "Night Drive (Mix) 2" when the Library already holds that title. */
export function uniqueTitle(title: string, taken: readonly string[]): string {
  const base = title.trim().slice(0, 112) || 'Untitled'
  const names = new Set(taken.map((t) => t.toLowerCase()))
  if (!names.has(base.toLowerCase())) return base
  for (let n = 2; ; n++) if (!names.has(`${base} ${n}`.toLowerCase())) return `${base} ${n}`
}

/**
 * Keeps audio the user made (a studio export, a microphone take, a remix) as a Library track, so
 * it can be played, published, minted or remixed like any other. Titles are unique in the Library.
 */
export async function saveAudioToLibrary(entry: {
  idPrefix: string
  title: string
  artist: string
  blob: Blob
  seconds: number
  origin: TrackOrigin
  image?: string
  remixId?: string
}): Promise<Song> {
  const id = `${entry.idPrefix}-${crypto.randomUUID()}`
  await putAudio(id, entry.blob)
  const taken = useLibraryStore.getState().userTracks.map((t) => t.title)
  const song: Song = {
    id,
    title: uniqueTitle(entry.title, taken),
    artist: entry.artist,
    duration: formatDuration(entry.seconds),
    seconds: entry.seconds,
    image: entry.image ?? (entry.origin === 'remix' ? ORIGIN_COVERS.export : ORIGIN_COVERS[entry.origin]),
    audioUrl: idbAudioUrl(id),
    ...(entry.remixId ? { remixId: entry.remixId } : {}),
  }
  if (!useLibraryStore.getState().addTrack(song)) throw new Error('The Library refused the track')
  return song
}
