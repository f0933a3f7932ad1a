import { fetchSongById } from '../../backend/publishing.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import type { ShareItem } from './share-item.ts'

export const SONG_NOT_SHAREABLE = 'This track is only on this device, so it has no page to share: publish it first.'

/** The song's page name (its slug), or null when the server has no such song. */
export type SlugOf = (songId: string) => Promise<string | null>

const slugFromServer: SlugOf = async (id) => (await fetchSongById(id))?.slug ?? null

/**
 * What Share on a song the player holds shares: its page (/song/{slug}), as the share item every
 * share button hands to shareItem / copyShareLink, so the link is made and credited by the same
 * rules as Share & Earn's. Throws SONG_NOT_SHAREABLE for a track that exists only on this device
 * or that the server does not know; a server failure is thrown as it came.
 */
export async function songShareItem(song: Pick<Song, 'id' | 'audioUrl' | 'title'>, slugOf: SlugOf = slugFromServer): Promise<ShareItem> {
  // Audio kept in this browser (the user's own takes) was never published under this id.
  if (song.audioUrl.startsWith('idb:') || song.audioUrl.startsWith('blob:')) throw new Error(SONG_NOT_SHAREABLE)
  const slug = await slugOf(song.id)
  if (!slug) throw new Error(SONG_NOT_SHAREABLE)
  return { type: 'song', id: slug, altId: song.id, title: song.title }
}
