import { supabase } from './client.ts'
import { parseListenAnswer, type ListenAnswer } from './wallet.ts'

/** Reports a station piece's listening time; the server credits it under the listening rules. */
export async function recordStationListen(recipeId: string, seconds: number, playId: string): Promise<ListenAnswer> {
  const { data, error } = await supabase().rpc('record_station_listen', { p_recipe_id: recipeId, p_seconds: seconds, p_play_id: playId })
  if (error) throw error
  return parseListenAnswer(data)
}
