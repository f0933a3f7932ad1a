import { supabase } from './client.ts'
import { jsonAs } from './rpc.ts'

/** One recommended song as recommend_songs() answers it (server-side ranking, see supabase/schemas/catalogue.sql). */
export interface RecommendedSong {
  id: string
  slug: string
  title: string
  artist: string
  genre: string | null
  duration_seconds: number
  reward: number
  cover_url: string | null
  audio_url: string | null
  plays: number
  /** genre | artist | new | popular | discovery */
  why: string
}

/** 'daily': ranked for the user (stable for the day at salt 0); 'discover': outside the usual genres. */
export async function fetchRecommendations(mode: 'daily' | 'discover', salt = 0, limit = 10): Promise<RecommendedSong[]> {
  const { data, error } = await supabase().rpc('recommend_songs', { p_mode: mode, p_salt: salt, p_limit: limit })
  if (error) throw error
  return jsonAs<RecommendedSong[]>(data) ?? []
}
