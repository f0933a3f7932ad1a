import { useCallback, useEffect, useState } from 'react'
import type { CatalogueRow } from '../../backend/publishing.ts'
import { useBackend, type Backend } from '../../domain/session/backend-context.ts'

export type SongLink = Pick<CatalogueRow, 'id' | 'title' | 'slug' | 'artist'>

export interface SongView {
  row: CatalogueRow
  /** The creator's current username (published songs), or null for the built-in catalogue. */
  creator: string | null
  /** The song this one is a remix of, when the server recorded one this visitor may see. */
  source: SongLink | null
  /** Published remixes of this song, newest first. */
  remixes: SongLink[]
}

const link = ({ id, title, slug, artist }: CatalogueRow): SongLink => ({ id, title, slug, artist })

/**
 * The song a /song/{slug} page shows, with its creator's name and its lineage; null when no song
 * has that slug. The lineage is extra: when it cannot be read the page shows the song without it.
 */
export async function loadSong(
  { publishing, profile: profiles }: Pick<Backend, 'publishing' | 'profile'>,
  slug: string,
): Promise<SongView | null> {
  const { fetchRemixesOf, fetchSongById, fetchSongBySlug } = publishing
  const fetchProfile = profiles.fetchProfile
  const row = await fetchSongBySlug(slug)
  if (!row) return null
  const [profile, source, remixes] = await Promise.all([
    row.owner_id ? fetchProfile(row.owner_id) : null,
    row.remix_of ? fetchSongById(row.remix_of).catch(() => null) : null,
    fetchRemixesOf(row.id).catch(() => []),
  ])
  return { row, creator: profile?.username ?? null, source: source ? link(source) : null, remixes: remixes.map(link) }
}

/** `loadSong` through the injected backend, the same function while the backend is the same. */
export function useSongLoader(): (slug: string) => Promise<SongView | null> {
  const backend = useBackend()
  return useCallback((slug: string) => loadSong(backend, slug), [backend])
}

/** The song's comment count, counted by the server and counted again (live) whenever its thread changes. */
export function useSongCommentCount(songId: string) {
  const { countSongComments, subscribeSongComments } = useBackend().comments
  const [comments, setComments] = useState<number | null>(null)
  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const recount = () =>
      countSongComments(songId).then(
        (n) => live && setComments(n),
        () => undefined,
      )
    void recount()
    // A burst of changes (a reply and its parent's update) is one recount.
    const unsubscribe = subscribeSongComments(songId, (change) => {
      if (change.kind !== 'comment') return
      clearTimeout(timer)
      timer = setTimeout(() => void recount(), 150)
    })
    return () => {
      live = false
      clearTimeout(timer)
      unsubscribe()
    }
  }, [songId, countSongComments, subscribeSongComments])
  return comments
}
