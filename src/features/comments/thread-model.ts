import type { CommentChange, CommentRow } from '../../backend/comments.ts'

/** One song's comments as the client holds them: rows by id and the ids the user has liked. */
export interface ThreadState {
  rows: ReadonlyMap<string, CommentRow>
  liked: ReadonlySet<string>
}

export interface ThreadEntry {
  comment: CommentRow
  /** Oldest first, as a conversation reads. */
  replies: CommentRow[]
}

export const emptyThread: ThreadState = { rows: new Map(), liked: new Set() }

export const threadFrom = (rows: readonly CommentRow[], liked: ReadonlySet<string>): ThreadState => ({
  rows: new Map(rows.map((r) => [r.id, r])),
  liked,
})

/** A row the server sent (an answer or a live event); a newer edit never goes back to an older one. */
export function withRow(state: ThreadState, row: CommentRow): ThreadState {
  const rows = new Map(state.rows)
  rows.set(row.id, row)
  return { ...state, rows }
}

export function withoutRow(state: ThreadState, id: string): ThreadState {
  if (!state.rows.has(id)) return state
  const rows = new Map(state.rows)
  rows.delete(id)
  // A reply's going can take its deleted parent with it (the server removes it in the same
  // transaction; its DELETE event follows).
  return { ...state, rows }
}

export function withLiked(state: ThreadState, id: string, liked: boolean): ThreadState {
  if (state.liked.has(id) === liked) return state
  const next = new Set(state.liked)
  if (liked) next.add(id)
  else next.delete(id)
  return { ...state, liked: next }
}

/** Applies one live change; `me` is the signed-in user (whose likes from another tab count as theirs). */
export function applyChange(state: ThreadState, change: CommentChange, me: string | undefined): ThreadState {
  if (change.kind === 'comment') return change.type === 'DELETE' ? withoutRow(state, change.id) : withRow(state, change.row)
  if (change.userId !== me) return state
  return withLiked(state, change.commentId, change.type === 'INSERT')
}

const newestFirst = (a: CommentRow, b: CommentRow) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)

/** Top-level comments newest first, each with its replies; a deleted comment stays only while it has replies. */
export function threadEntries(state: ThreadState): ThreadEntry[] {
  const replies = new Map<string, CommentRow[]>()
  for (const row of state.rows.values()) {
    if (row.parent_id === null) continue
    const list = replies.get(row.parent_id) ?? []
    list.push(row)
    replies.set(row.parent_id, list)
  }
  return [...state.rows.values()]
    .filter((r) => r.parent_id === null && (!r.deleted || (replies.get(r.id)?.length ?? 0) > 0))
    .sort(newestFirst)
    .map((comment) => ({ comment, replies: (replies.get(comment.id) ?? []).sort((a, b) => -newestFirst(a, b)) }))
}

/** The live top-level comments pinned to a moment within the song's `duration`, earliest moment first. */
export function pinnedComments(state: ThreadState, duration: number): CommentRow[] {
  if (!(duration > 0)) return []
  return [...state.rows.values()]
    .filter((r) => r.parent_id === null && !r.deleted && r.at_seconds !== null && r.at_seconds >= 0 && r.at_seconds <= duration)
    .sort((a, b) => a.at_seconds! - b.at_seconds! || a.created_at.localeCompare(b.created_at))
}
