import { create } from 'zustand'
import type { CommentRules } from '../../backend/comments.ts'

/**
 * The rules as SQL public.comment_rules() states them; until the server has answered, the same
 * documented values (comment-rules.test.ts checks they agree with the migration).
 */
export const FALLBACK_COMMENT_RULES: CommentRules = {
  max_length: 2000,
  rewards: { comment: 5, like: 2, reply: 3, reply_author: 3, daily_goal_bonus: 10 },
  daily_caps: { comment: 10, like: 20, reply: 10, reply_author: 10 },
  daily_goal_tracks: 5,
  tracks_per_level: 5,
}

export const useCommentRules = create<{ rules: CommentRules; loaded: boolean }>()(() => ({ rules: FALLBACK_COMMENT_RULES, loaded: false }))

let loading: Promise<void> | undefined
/**
 * Reads the rules once through `fetchRules` (the injected backend's `comments.fetchCommentRules`);
 * a failure lets the next caller ask again.
 */
export function loadCommentRules(fetchRules: () => Promise<CommentRules>): Promise<void> {
  loading ??= fetchRules().then(
    (rules) => useCommentRules.setState({ rules, loaded: true }),
    () => {
      loading = undefined
    },
  )
  return loading
}
