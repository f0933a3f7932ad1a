import { useCallback, useEffect, useRef, useState } from 'react'
import {
  deleteComment,
  editComment,
  fetchLikedIds,
  fetchSongComments,
  postComment,
  setCommentLike,
  subscribeSongComments,
  type CommentChange,
} from '../../backend/comments.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { announceCredits } from './community-credits.ts'
import { applyChange, emptyThread, threadFrom, withLiked, withoutRow, withRow, type ThreadState } from './thread-model.ts'

export type ThreadStatus = 'loading' | 'ready' | 'error'

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
 * deletions by anyone), with the user's actions sent to the server's definer functions.
 */
export function useCommentThread(songId: string | undefined) {
  const userId = useSessionStore((s) => s.user?.id)
  // Kept with the song it belongs to: another song's thread never shows, even for one frame.
  const [data, setData] = useState<{ songId: string | undefined; state: ThreadState; status: ThreadStatus; live: boolean }>({
    songId: undefined,
    state: emptyThread,
    status: 'loading',
    live: false,
  })
  const setState = useCallback((fn: (s: ThreadState) => ThreadState) => setData((d) => ({ ...d, state: fn(d.state) })), [])
  const me = useRef(userId)
  useEffect(() => {
    me.current = userId
  }, [userId])

  useEffect(() => {
    if (!songId) return
    let cancelled = false
    let pending: CommentChange[] = []
    let loaded = false
    let subscriptions = 0
    const load = () =>
      Promise.all([fetchSongComments(songId), userId ? fetchLikedIds(songId, userId) : Promise.resolve(new Set<string>())]).then(
        ([rows, liked]) => {
          if (cancelled) return
          loaded = true
          const state = pending.reduce((s, c) => applyChange(s, c, me.current), threadFrom(rows, liked))
          pending = []
          setData((d) => ({ songId, state, status: 'ready', live: d.songId === songId && d.live }))
        },
        () =>
          !cancelled &&
          setData((d) => (d.songId === songId && d.status === 'ready' ? d : { songId, state: emptyThread, status: 'error', live: false })),
      )
    // Subscribe first, so nothing committed between the read and the subscription is missed;
    // changes arriving before the read are applied on top of it.
    const unsubscribe = subscribeSongComments(
      songId,
      (change) => {
        if (!loaded) pending.push(change)
        else setData((d) => (d.songId === songId ? { ...d, state: applyChange(d.state, change, me.current) } : d))
      },
      (s) => {
        if (cancelled) return
        setData((d) =>
          d.songId === songId
            ? { ...d, live: s === 'SUBSCRIBED' }
            : { songId, state: emptyThread, status: 'loading', live: s === 'SUBSCRIBED' },
        )
        // Joined again after the connection dropped: what changed meanwhile was not pushed, so read again.
        if (s === 'SUBSCRIBED' && ++subscriptions > 1) {
          loaded = false
          void load()
        }
      },
    )
    void load()
    return () => {
      cancelled = true
      unsubscribe()
    }
  }, [songId, userId])

  const post = useCallback(
    async (body: string, parentId?: string, atSeconds?: number) => {
      if (!songId) return false
      try {
        const answer = await postComment(songId, body, parentId, atSeconds)
        setState((s) => withRow(s, answer.comment))
        announceCredits(answer.credited, answer.balance)
        // The user's figures (total comments, level) changed even when nothing was credited.
        useSessionStore.getState().bumpActivity()
        return true
      } catch (error) {
        notify.error('Comment not posted', { description: commentError(error) })
        return false
      }
    },
    [songId, setState],
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
    [setState],
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
    [setState],
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
        useSessionStore.getState().bumpActivity()
      } catch (error) {
        notify.error('Comment not deleted', { description: commentError(error) })
      }
    },
    [setState],
  )

  const current = data.songId === songId ? data : { state: emptyThread, status: 'loading' as const, live: false }
  return { state: current.state, status: current.status, live: current.live, userId, post, like, edit, remove }
}
