import { useEffect, useState } from 'react'
import { fetchCommentStats, fetchMyComments, type CommentRow, type CommentStats } from '../../backend/comments.ts'
import { fetchSongs, type ServerSong } from '../../backend/profile.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'

/** The user's comment figures, from the server (my_comment_stats), read again after each credit. */
export function useCommentStats(userId: string | undefined) {
  const version = useSessionStore((s) => s.activityVersion)
  const [stats, setStats] = useState<CommentStats | null>(null)
  useEffect(() => {
    if (!userId) return
    let cancelled = false
    fetchCommentStats().then(
      (s) => !cancelled && setStats(s),
      () => undefined,
    )
    return () => {
      cancelled = true
    }
  }, [userId, version])
  return userId ? stats : null
}

/** The user's own comments (null while loading, empty on failure) and the songs they are on. */
export function useMyComments(userId: string) {
  const version = useSessionStore((s) => s.activityVersion)
  const [rows, setRows] = useState<CommentRow[] | null>(null)
  const [songs, setSongs] = useState<Map<string, ServerSong>>(new Map())
  useEffect(() => {
    let cancelled = false
    Promise.all([fetchMyComments(userId), fetchSongs()]).then(
      ([r, s]) => {
        if (cancelled) return
        setRows(r)
        setSongs(s)
      },
      () => !cancelled && setRows([]),
    )
    return () => {
      cancelled = true
    }
  }, [userId, version])
  return { rows, songs }
}
