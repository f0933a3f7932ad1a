import { useQuery } from '@tanstack/react-query'
import type { ServerSong } from '../../backend/profile.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { commentKeys } from './comment-keys.ts'

const NO_SONGS: ReadonlyMap<string, ServerSong> = new Map()

/** The user's comment figures, from the server (my_comment_stats), read again after each comment or credit. */
export function useCommentStats(userId: string | undefined) {
  const backend = useBackend()
  const query = useQuery({
    queryKey: commentKeys.stats(userId ?? ''),
    queryFn: () => backend.comments.fetchCommentStats(),
    enabled: !!userId,
  })
  return userId ? (query.data ?? null) : null
}

/** The user's own comments (null while loading, empty on failure) and the songs they are on. */
export function useMyComments(userId: string) {
  const backend = useBackend()
  const query = useQuery({
    queryKey: commentKeys.list(userId),
    queryFn: () => Promise.all([backend.comments.fetchMyComments(userId), backend.profile.fetchSongs()]),
    retry: false,
  })
  if (query.isError) return { rows: [], songs: NO_SONGS }
  return { rows: query.data?.[0] ?? null, songs: query.data?.[1] ?? NO_SONGS }
}
