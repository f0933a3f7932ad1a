import { supabase } from './client.ts'
import type { Tables } from './database.types.ts'

// Server-side playlists and favourites of the signed-in user (RLS: own rows only; user_id
// defaults to auth.uid() on insert, so the client never names another user).

export interface ServerPlaylist {
  id: string
  name: string
  created_at: string
  /** Song ids in playlist order. */
  songIds: string[]
}

type PlaylistSongRow = Pick<Tables<'playlist_songs'>, 'playlist_id' | 'song_id' | 'position'>

export async function fetchPlaylists(userId: string): Promise<ServerPlaylist[]> {
  const db = supabase()
  const { data: lists, error } = await db
    .from('playlists')
    .select('id, name, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: true })
  if (error) throw error
  if (!lists || lists.length === 0) return []
  const { data: rows, error: songsError } = await db
    .from('playlist_songs')
    .select('playlist_id, song_id, position')
    .in(
      'playlist_id',
      lists.map((l) => l.id),
    )
    .order('position', { ascending: true })
  if (songsError) throw songsError
  const byList = new Map<string, string[]>()
  for (const row of (rows ?? []) as PlaylistSongRow[]) {
    const ids = byList.get(row.playlist_id) ?? []
    ids.push(row.song_id)
    byList.set(row.playlist_id, ids)
  }
  return lists.map((l) => ({ id: String(l.id), name: String(l.name), created_at: String(l.created_at), songIds: byList.get(l.id) ?? [] }))
}

export async function createPlaylist(name: string): Promise<ServerPlaylist> {
  const { data, error } = await supabase().from('playlists').insert({ name }).select('id, name, created_at').single()
  if (error) throw error
  return { id: String(data.id), name: String(data.name), created_at: String(data.created_at), songIds: [] }
}

export async function renamePlaylist(id: string, name: string): Promise<void> {
  const { error } = await supabase().from('playlists').update({ name }).eq('id', id)
  if (error) throw error
}

export async function deletePlaylist(id: string): Promise<void> {
  const { error } = await supabase().from('playlists').delete().eq('id', id)
  if (error) throw error
}

export async function addPlaylistSong(playlistId: string, songId: string, position: number): Promise<void> {
  const { error } = await supabase().from('playlist_songs').insert({ playlist_id: playlistId, song_id: songId, position })
  // 23505: already there (unique playlist_id, song_id) — the state we wanted.
  if (error && error.code !== '23505') throw error
}

export async function removePlaylistSong(playlistId: string, songId: string): Promise<void> {
  const { error } = await supabase().from('playlist_songs').delete().eq('playlist_id', playlistId).eq('song_id', songId)
  if (error) throw error
}

export async function fetchFavourites(userId: string): Promise<string[]> {
  const { data, error } = await supabase()
    .from('favourites')
    .select('song_id, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: true })
  if (error) throw error
  return (data ?? []).map((r) => String(r.song_id))
}

export async function addFavourite(songId: string): Promise<void> {
  const { error } = await supabase().from('favourites').insert({ song_id: songId })
  if (error && error.code !== '23505') throw error
}

export async function removeFavourite(songId: string): Promise<void> {
  const { error } = await supabase().from('favourites').delete().eq('song_id', songId)
  if (error) throw error
}
