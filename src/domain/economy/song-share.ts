import { fetchSongById } from '../../backend/publishing.ts'
import { createShareLink, type ShareLink } from '../../backend/sharing.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { useSessionStore } from '../session/session-store.ts'
import { useShareLinksStore } from './share-links-store.ts'
import { sharePath, sharedUrl } from './share-url.ts'

/** What Share on a song copies. */
export interface SongShare {
  url: string
  /** The address carries the user's own link token: someone else opening it pays them (the server's share rules). */
  tokened: boolean
  /** What an opening by someone else pays (tokened links only). */
  amount?: number
}

export const SONG_NOT_SHAREABLE = 'This track is only on this device, so it has no page to share: publish it first.'

export interface SongShareDeps {
  /** The song's page name (its slug), or null when the server has no such song. */
  slugOf: (songId: string) => Promise<string | null>
  /** The signed-in user's copy-link link for the song (made or given back by the server). */
  createLink: (slug: string) => Promise<ShareLink>
  signedIn: () => boolean
}

const DEFAULT_DEPS: SongShareDeps = {
  slugOf: async (id) => (await fetchSongById(id))?.slug ?? null,
  createLink: (slug) => createShareLink('song', slug, 'copy_link'),
  signedIn: () => useSessionStore.getState().user !== null,
}

/**
 * The address to share for a song the player holds: its page (/song/{slug}) with the user's
 * copy-link token when signed in, made by the same `share_create` as Share & Earn's Copy link, so
 * the share is credited by the same rules and shows in the user's links (pending → credited).
 * Signed out, the plain page address. Throws SONG_NOT_SHAREABLE for a track that exists only on
 * this device; a server failure is thrown as it came (the caller says it in words).
 */
export async function songShareLink(
  song: Pick<Song, 'id' | 'audioUrl'>,
  origin: string = window.location.origin,
  deps: SongShareDeps = DEFAULT_DEPS,
): Promise<SongShare> {
  // Audio kept in this browser (the user's own takes) was never published under this id.
  if (song.audioUrl.startsWith('idb:') || song.audioUrl.startsWith('blob:')) throw new Error(SONG_NOT_SHAREABLE)
  const slug = await deps.slugOf(song.id)
  if (!slug) throw new Error(SONG_NOT_SHAREABLE)
  if (!deps.signedIn()) return { url: `${origin}${sharePath('song', slug)}`, tokened: false }
  const link = await deps.createLink(slug)
  useShareLinksStore.getState().upsert(link)
  return { url: sharedUrl(origin, 'song', slug, link.token), tokened: true, amount: link.amount }
}
