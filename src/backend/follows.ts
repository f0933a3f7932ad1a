/**
 * Public profiles and follows (public.follows: anyone reads; a user adds or removes only their own).
 *
 *   fetchProfileByUsername(username)      the public profile, or null
 *   fetchFollowCounts(userId)             { followers, following } counted by the server
 *   isFollowing(followerId, followingId)
 *   follow(followerId, followingId) / unfollow(followerId, followingId)
 */
import { supabase } from './client.ts'
import { jsonAs } from './rpc.ts'
import type { ProfileRow } from './profile.ts'

export async function fetchProfileByUsername(username: string): Promise<ProfileRow | null> {
  const { data, error } = await supabase()
    .from('profiles')
    .select('user_id, username, avatar_url, bio, created_at')
    .eq('username', username)
    .maybeSingle<ProfileRow>()
  if (error) throw error
  return data
}

async function count(column: 'follower_id' | 'following_id', userId: string): Promise<number> {
  const { count: n, error } = await supabase().from('follows').select('follower_id', { count: 'exact', head: true }).eq(column, userId)
  if (error) throw error
  return n ?? 0
}

export async function fetchFollowCounts(userId: string): Promise<{ followers: number; following: number }> {
  const [followers, following] = await Promise.all([count('following_id', userId), count('follower_id', userId)])
  return { followers, following }
}

export async function isFollowing(followerId: string, followingId: string): Promise<boolean> {
  const { data, error } = await supabase()
    .from('follows')
    .select('follower_id')
    .eq('follower_id', followerId)
    .eq('following_id', followingId)
    .maybeSingle()
  if (error) throw error
  return data !== null
}

export async function follow(followerId: string, followingId: string): Promise<void> {
  const { error } = await supabase().from('follows').insert({ follower_id: followerId, following_id: followingId })
  // Already following (a double click, another tab): the wanted state holds.
  if (error && error.code !== '23505') throw error
}

export async function unfollow(followerId: string, followingId: string): Promise<void> {
  const { error } = await supabase().from('follows').delete().eq('follower_id', followerId).eq('following_id', followingId)
  if (error) throw error
}

export interface PublicPlaylist {
  id: string
  name: string
  track_count: number
  songs: { id: string; title: string; artist: string; slug: string }[]
}

/** A user's public playlists with their catalogue songs (public_playlists()). */
export async function fetchPublicPlaylists(userId: string): Promise<PublicPlaylist[]> {
  const { data, error } = await supabase().rpc('public_playlists', { p_user_id: userId })
  if (error) throw error
  return jsonAs<PublicPlaylist[]>(data) ?? []
}

/** The signed-in owner's playlists with their public flag (RLS: own rows only). */
export async function fetchOwnPlaylistVisibility(userId: string): Promise<{ id: string; name: string; is_public: boolean }[]> {
  const { data, error } = await supabase()
    .from('playlists')
    .select('id, name, is_public')
    .eq('user_id', userId)
    .order('created_at', { ascending: true })
  if (error) throw error
  return (data ?? []) as { id: string; name: string; is_public: boolean }[]
}

export async function setPlaylistPublic(id: string, isPublic: boolean): Promise<void> {
  const { error } = await supabase().from('playlists').update({ is_public: isPublic }).eq('id', id)
  if (error) throw error
}

/** That a username exists and whether its profile is private to the caller (public_profile_name()). */
export async function fetchProfileName(username: string): Promise<{ user_id: string; username: string; private: boolean } | null> {
  const { data, error } = await supabase().rpc('public_profile_name', { p_username: username })
  if (error) throw error
  return (data as { user_id: string; username: string; private: boolean } | null) ?? null
}

export interface RecentListen {
  song_id: string
  title: string
  artist: string
  slug: string
  listened_at: string
}

/** A public profile's recently played songs, empty while its owner hides their activity. */
export async function fetchRecentListens(userId: string): Promise<RecentListen[]> {
  const { data, error } = await supabase().rpc('recent_listens', { p_user_id: userId, p_limit: 5 })
  if (error) throw error
  return (data ?? []) as RecentListen[]
}
