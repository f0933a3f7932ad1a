import { useCallback, useSyncExternalStore } from 'react'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { announceCredits } from './community-credits.ts'
import { followThread, LOADING_THREAD, threadSnapshot, updateThread } from './comment-thread-store.ts'
import { withLiked, withoutRow, withRow, type ThreadState } from './thread-model.ts'
import { myCommentsChanged } from './comment-keys.ts'

/** Friendly text for the server's refusal codes. */
export function commentError(error: unknown): string {
  const text = errorMessage(error)
  const known: Record<string, string> = {
    comment_too_long: 'That comment is too long.',
    unknown_song: 'This song is not in the catalogue.',
    reply_to_reply: 'Replies cannot be replied to.',
    comment_deleted: 'That comment was deleted.',
    unknown_comment: 'That comment no longer exists.',
    not_your_comment: 'Only the author can change this comment.',
    not_authenticated: 'Sign in to comment.',
    invalid_moment: 'That moment is not in the song.',
  }
  return known[text] ?? text
}

/**
 * One song's thread: loaded once, then kept live through Realtime (comments, replies, likes and
 * deletions by anyone), with the user's actions sent to the server's definer functions (through the
 * injected backend). Every
 * widget showing the same song shares one read and one channel (comment-thread-store.ts).
 */
export function useCommentThread(songId: string | undefined) {
  const userId = useSessionStore((s) => s.user?.id)
  const { comments } = useBackend()
  const { deleteComment, editComment, postComment, setCommentLike } = comments
  const follow = useCallback(
    (listener: () => void) => (songId ? followThread(comments, songId, userId, listener) : () => {}),
    [comments, songId, userId],
  )
  // Keyed by song and viewer: another song's thread never shows, even for one frame.
  const current = useSyncExternalStore(follow, () => (songId ? threadSnapshot(songId, userId) : LOADING_THREAD))
  const setState = useCallback(
    (fn: (s: ThreadState) => ThreadState) => {
      if (songId) updateThread(songId, userId, fn)
    },
    [songId, userId],
  )

  const post = useCallback(
    async (body: string, parentId?: string, atSeconds?: number) => {
      if (!songId) return false
      try {
        const answer = await postComment(songId, body, parentId, atSeconds)
        setState((s) => withRow(s, answer.comment))
        announceCredits(answer.credited, answer.balance)
        // The user's figures (total comments, level) changed even when nothing was credited.
        void myCommentsChanged(useSessionStore.getState().user?.id)
        return true
      } catch (error) {
        notify.error('Comment not posted', { description: commentError(error) })
        return false
      }
    },
    [songId, setState, postComment],
  )

  const like = useCallback(
    async (id: string, liked: boolean) => {
      setState((s) => withLiked(s, id, liked))
      try {
        const answer = await setCommentLike(id, liked)
        setState((s) => {
          const row = s.rows.get(id)
          return withLiked(row ? withRow(s, { ...row, like_count: answer.like_count }) : s, id, answer.liked)
        })
        announceCredits(answer.credited, answer.balance)
      } catch (error) {
        setState((s) => withLiked(s, id, !liked))
        notify.error('Like not saved', { description: commentError(error) })
      }
    },
    [setState, setCommentLike],
  )

  const edit = useCallback(
    async (id: string, body: string) => {
      try {
        const row = await editComment(id, body)
        setState((s) => withRow(s, row))
        notify.success('Comment updated')
        return true
      } catch (error) {
        notify.error('Comment not updated', { description: commentError(error) })
        return false
      }
    },
    [setState, editComment],
  )

  const remove = useCallback(
    async (id: string) => {
      try {
        const answer = await deleteComment(id)
        setState((s) => {
          const row = s.rows.get(id)
          if (answer.kept_for_replies && row) return withRow(s, { ...row, deleted: true, body: '', like_count: 0 })
          return withoutRow(s, id)
        })
        notify.success('Comment deleted')
        void myCommentsChanged(useSessionStore.getState().user?.id)
      } catch (error) {
        notify.error('Comment not deleted', { description: commentError(error) })
      }
    },
    [setState, deleteComment],
  )

  return { state: current.state, status: current.status, live: current.live, userId, post, like, edit, remove }
}
