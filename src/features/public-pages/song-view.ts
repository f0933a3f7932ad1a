import { useEffect, useState } from 'react'
import { fetchSongBySlug, type CatalogueRow } from '../../backend/publishing.ts'
import { countSongComments, subscribeSongComments } from '../../backend/comments.ts'
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
/** The song's comment count, counted by the server and counted again (live) whenever its thread changes. */
export function useSongCommentCount(songId: string) {
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
  }, [songId])
  return comments
}
