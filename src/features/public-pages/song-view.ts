import { useEffect, useState } from 'react'
import { fetchSongBySlug, type CatalogueRow } from '../../backend/publishing.ts'
import { countSongComments } from '../../backend/comments.ts'
import { fetchProfile } from '../../backend/profile.ts'

export interface SongView {
  row: CatalogueRow
  /** The creator's current username (published songs), or null for the built-in catalogue. */
  creator: string | null
}

/** The song a /song/{slug} page shows, with its creator's name; null when no song has that slug. */
export async function loadSong(slug: string): Promise<SongView | null> {
  const row = await fetchSongBySlug(slug)
  if (!row) return null
  const profile = row.owner_id ? await fetchProfile(row.owner_id) : null
  return { row, creator: profile?.username ?? null }
}

/** How many comments the song has; null until (or unless) the server answers. */
export function useSongCommentCount(songId: string) {
  const [comments, setComments] = useState<number | null>(null)
  useEffect(() => {
    let live = true
    countSongComments(songId).then(
      (n) => live && setComments(n),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [songId])
  return comments
}
