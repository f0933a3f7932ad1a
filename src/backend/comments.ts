import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js'
import { supabase } from './client.ts'
import { rpcJson } from './rpc.ts'
import type { Tables } from './database.types.ts'

/** A row of public.comments (supabase/schemas/comments.sql). */
/** A comment as read: its author's id is null once the author deleted their account (the name stays). */
export type CommentRow = Pick<
  Tables<'comments'>,
  'id' | 'song_id' | 'user_id' | 'username' | 'parent_id' | 'body' | 'like_count' | 'deleted' | 'edited_at' | 'created_at' | 'at_seconds'
>

/** What the server credited for one action (never decided here). */
export interface Credit {
  reason: string
  amount: number
}

/** SQL public.comment_rules(): the one source of these constants. */
export interface CommentRules {
  max_length: number
  rewards: { comment: number; like: number; reply: number; reply_author: number; daily_goal_bonus: number }
  daily_caps: { comment: number; like: number; reply: number; reply_author: number }
  daily_goal_tracks: number
  tracks_per_level: number
}

export interface CommentStats {
  total_comments: number
  tokens_earned: number
  tracks_commented: number
  level: number
  tracks_to_next_level: number
  level_progress: number
  goal_tracks_today: number
  goal_tracks: number
  goal_reached: boolean
}

const COMMENT_COLUMNS = 'id, song_id, user_id, username, parent_id, body, like_count, deleted, edited_at, created_at, at_seconds'

const call = rpcJson

export const fetchCommentRules = () => call<CommentRules>('comment_rules')
export const fetchCommentStats = () => call<CommentStats>('my_comment_stats')

export async function fetchSongComments(songId: string): Promise<CommentRow[]> {
  const { data, error } = await supabase()
    .from('comments')
    .select(COMMENT_COLUMNS)
    .eq('song_id', songId)
    .order('created_at', { ascending: false })
    .limit(500)
  if (error) throw error
  return data as CommentRow[]
}

/** The ids of the comments on a song the user has liked. */
export async function fetchLikedIds(songId: string, userId: string): Promise<Set<string>> {
  const { data, error } = await supabase().from('comment_likes').select('comment_id').eq('song_id', songId).eq('user_id', userId)
  if (error) throw error
  return new Set((data as { comment_id: string }[]).map((r) => r.comment_id))
}

export async function fetchMyComments(userId: string): Promise<CommentRow[]> {
  const { data, error } = await supabase()
    .from('comments')
    .select(COMMENT_COLUMNS)
    .eq('user_id', userId)
    .eq('deleted', false)
    .order('created_at', { ascending: false })
    .limit(500)
  if (error) throw error
  return data as CommentRow[]
}

export interface PostAnswer {
  comment: CommentRow
  credited: Credit[]
  balance: number
}

/** `atSeconds`: the moment of the song a top-level comment is pinned to (shown on the waveform). */
export const postComment = (songId: string, body: string, parentId?: string, atSeconds?: number) =>
  call<PostAnswer>('post_comment', {
    p_song_id: songId,
    p_body: body,
    ...(parentId ? { p_parent_id: parentId } : {}),
    ...(atSeconds !== undefined ? { p_at_seconds: atSeconds } : {}),
  })
export const editComment = (id: string, body: string) => call<CommentRow>('edit_comment', { p_comment_id: id, p_body: body })
export const deleteComment = (id: string) => call<{ id: string; kept_for_replies: boolean }>('delete_comment', { p_comment_id: id })
export const setCommentLike = (id: string, liked: boolean) =>
  call<{ liked: boolean; like_count: number; credited: Credit[]; balance: number }>('set_comment_like', {
    p_comment_id: id,
    p_liked: liked,
  })

export type CommentChange =
  | { kind: 'comment'; type: 'INSERT' | 'UPDATE'; row: CommentRow }
  | { kind: 'comment'; type: 'DELETE'; id: string }
  | { kind: 'like'; type: 'INSERT'; commentId: string; userId: string }
  | { kind: 'like'; type: 'DELETE'; commentId: string; userId: string }

/** A column of a change's record, as text (a DELETE's old record carries only the key). */
const field = (record: object, column: string): string => String((record as Record<string, unknown>)[column])

/**
 * Live changes of one song's thread (Realtime postgres_changes on comments and comment_likes,
 * RLS applied by the server). Returns the unsubscribe function. Realtime matches a DELETE on the old
 * row's replica identity, here only the key (hosted and local alike), so a song filter never matches
 * it: deletions come from unfiltered bindings, carrying only the old key, and the thread ignores
 * those of other songs.
 */
export function subscribeSongComments(
  songId: string,
  onChange: (change: CommentChange) => void,
  onStatus?: (status: string) => void,
): () => void {
  const client = supabase()
  const filter = `song_id=eq.${songId}`
  const channel = client
    .channel(`comments:${songId}:${Math.random().toString(36).slice(2)}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'comments', filter },
      (p: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
        if (p.eventType !== 'DELETE') onChange({ kind: 'comment', type: p.eventType, row: p.new as unknown as CommentRow })
      },
    )
    .on(
      'postgres_changes',
      { event: 'DELETE', schema: 'public', table: 'comments' },
      (p: RealtimePostgresChangesPayload<Record<string, unknown>>) => onChange({ kind: 'comment', type: 'DELETE', id: field(p.old, 'id') }),
    )
    .on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'comment_likes', filter },
      (p: RealtimePostgresChangesPayload<Record<string, unknown>>) =>
        onChange({ kind: 'like', type: 'INSERT', commentId: field(p.new, 'comment_id'), userId: field(p.new, 'user_id') }),
    )
    .on(
      'postgres_changes',
      { event: 'DELETE', schema: 'public', table: 'comment_likes' },
      (p: RealtimePostgresChangesPayload<Record<string, unknown>>) =>
        onChange({ kind: 'like', type: 'DELETE', commentId: field(p.old, 'comment_id'), userId: field(p.old, 'user_id') }),
    )
    .subscribe((status) => onStatus?.(status))
  return () => {
    void client.removeChannel(channel)
  }
}

/** How many comments (not deleted) a song has, counted by the server. */
export async function countSongComments(songId: string): Promise<number> {
  const { count, error } = await supabase()
    .from('comments')
    .select('id', { count: 'exact', head: true })
    .eq('song_id', songId)
    .eq('deleted', false)
  if (error) throw error
  return count ?? 0
}
