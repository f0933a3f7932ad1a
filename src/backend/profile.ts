import { supabase } from './client.ts'
import type { Tables } from './database.types.ts'

export type ProfileRow = Pick<Tables<'profiles'>, 'user_id' | 'username' | 'avatar_url' | 'bio' | 'created_at'>

export async function fetchProfile(userId: string): Promise<ProfileRow | null> {
  const { data, error } = await supabase()
    .from('profiles')
    .select('user_id, username, avatar_url, bio, created_at')
    .eq('user_id', userId)
    .maybeSingle<ProfileRow>()
  if (error) throw error
  return data
}

export interface ServerSong {
  id: string
  title: string
  artist: string
  duration_seconds: number | null
  reward: number
}

let songsCache: Promise<Map<string, ServerSong>> | undefined

/** The server's catalogue (small, public), fetched once per page and kept. */
export function fetchSongs(): Promise<Map<string, ServerSong>> {
  songsCache ??= (async () => {
    const { data, error } = await supabase().from('songs').select('id, title, artist, duration_seconds, reward')
    if (error) throw error
    return new Map((data as ServerSong[]).map((s) => [s.id, s]))
  })().catch((error: unknown) => {
    songsCache = undefined
    throw error
  })
  return songsCache
}

export type HistoryRow = Pick<Tables<'user_listening_history'>, 'id' | 'song_id' | 'listened_at' | 'seconds'>

export async function fetchRecentHistory(userId: string, limit = 5): Promise<HistoryRow[]> {
  const { data, error } = await supabase()
    .from('user_listening_history')
    .select('id, song_id, listened_at, seconds')
    .eq('user_id', userId)
    .order('listened_at', { ascending: false })
    .limit(limit)
  if (error) throw error
  return data ?? []
}

/** Rows in the listening history, optionally only those since an ISO instant. */
export async function countHistory(userId: string, since?: string): Promise<number> {
  let query = supabase().from('user_listening_history').select('id', { count: 'exact', head: true }).eq('user_id', userId)
  if (since) query = query.gte('listened_at', since)
  const { count, error } = await query
  if (error) throw error
  return count ?? 0
}

export async function countLedger(userId: string, reason: string): Promise<number> {
  const { count, error } = await supabase()
    .from('token_ledger')
    .select('id', { count: 'exact', head: true })
    .eq('user_id', userId)
    .eq('reason', reason)
  if (error) throw error
  return count ?? 0
}
