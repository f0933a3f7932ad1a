import { describe, expect, it } from 'vitest'
import type { CommentRow } from '../../backend/comments.ts'
import { applyChange, emptyThread, pinnedComments, threadEntries, threadFrom } from './thread-model.ts'

const row = (id: string, at: string, over: Partial<CommentRow> = {}): CommentRow => ({
  id,
  song_id: 's',
  user_id: 'u1',
  username: 'u',
  parent_id: null,
  body: id,
  like_count: 0,
  deleted: false,
  edited_at: null,
  created_at: at,
  at_seconds: null,
  ...over,
})

describe('thread model', () => {
  it('puts new comments on top and replies under their comment, oldest first', () => {
    let s = threadFrom([row('a', '2026-01-01T00:00:00Z')], new Set())
    s = applyChange(s, { kind: 'comment', type: 'INSERT', row: row('b', '2026-01-02T00:00:00Z') }, 'u1')
    s = applyChange(s, { kind: 'comment', type: 'INSERT', row: row('r2', '2026-01-04T00:00:00Z', { parent_id: 'a' }) }, 'u1')
    s = applyChange(s, { kind: 'comment', type: 'INSERT', row: row('r1', '2026-01-03T00:00:00Z', { parent_id: 'a' }) }, 'u1')
    expect(threadEntries(s).map((e) => [e.comment.id, e.replies.map((r) => r.id)])).toEqual([
      ['b', []],
      ['a', ['r1', 'r2']],
    ])
  })

  it('keeps a deleted comment while it has replies and drops it when none is left', () => {
    let s = threadFrom(
      [row('a', '2026-01-01T00:00:00Z', { deleted: true, body: '' }), row('r', '2026-01-02T00:00:00Z', { parent_id: 'a' })],
      new Set(),
    )
    expect(threadEntries(s).map((e) => e.comment.id)).toEqual(['a'])
    s = applyChange(s, { kind: 'comment', type: 'DELETE', id: 'r' }, 'u1')
    expect(threadEntries(s)).toEqual([])
  })

  it('an UPDATE replaces the row (like counts, edits); only my own likes mark "liked"', () => {
    let s = threadFrom([row('a', '2026-01-01T00:00:00Z')], new Set())
    s = applyChange(s, { kind: 'comment', type: 'UPDATE', row: row('a', '2026-01-01T00:00:00Z', { like_count: 3, body: 'edited' }) }, 'me')
    s = applyChange(s, { kind: 'like', type: 'INSERT', commentId: 'a', userId: 'someone' }, 'me')
    expect(s.liked.has('a')).toBe(false)
    s = applyChange(s, { kind: 'like', type: 'INSERT', commentId: 'a', userId: 'me' }, 'me')
    expect(s.liked.has('a')).toBe(true)
    expect(threadEntries(s)[0]!.comment).toMatchObject({ like_count: 3, body: 'edited' })
    expect(applyChange(emptyThread, { kind: 'comment', type: 'DELETE', id: 'x' }, 'me')).toBe(emptyThread)
  })

  it('pinned comments: live top-level ones within the song, earliest first; replies, deleted and unpinned ones are no markers', () => {
    let s = threadFrom(
      [
        row('late', '2026-01-01T00:00:00Z', { at_seconds: 70 }),
        row('early', '2026-01-02T00:00:00Z', { at_seconds: 12.5 }),
        row('plain', '2026-01-03T00:00:00Z'),
        row('past-end', '2026-01-04T00:00:00Z', { at_seconds: 200 }),
      ],
      new Set(),
    )
    s = applyChange(
      s,
      { kind: 'comment', type: 'INSERT', row: row('gone', '2026-01-05T00:00:00Z', { at_seconds: 30, deleted: true }) },
      'u1',
    )
    s = applyChange(
      s,
      { kind: 'comment', type: 'INSERT', row: row('r', '2026-01-06T00:00:00Z', { parent_id: 'late', at_seconds: 40 }) },
      'u1',
    )
    expect(pinnedComments(s, 80).map((c) => c.id)).toEqual(['early', 'late'])
    expect(pinnedComments(s, 0)).toEqual([])
    expect(pinnedComments(emptyThread, 80)).toEqual([])
  })
})
