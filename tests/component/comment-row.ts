import type { CommentRow } from '../../src/backend/comments.ts'

/** A comment on Neon Drift as the server answers it, for tests of the thread and its markers. */
export const commentRow = (id: string, over: Partial<CommentRow> = {}): CommentRow => ({
  id,
  song_id: 'neon-drift',
  user_id: 'u2',
  username: 'ava',
  parent_id: null,
  body: `comment ${id}`,
  like_count: 0,
  deleted: false,
  edited_at: null,
  created_at: '2026-11-26T10:00:00Z',
  at_seconds: null,
  ...over,
})
