import { supabase } from './client.ts'
import { parseListenAnswer, type ListenAnswer } from './wallet.ts'

/** Opens the server's listening session for a CUBE Radio piece (by its recipe id) while it is on air. */
export async function startStationListen(recipeId: string, playKey: string, interacted: boolean): Promise<ListenAnswer> {
  const { data, error } = await supabase().rpc('listen_station_start', {
    p_recipe_id: recipeId,
    p_play_id: playKey,
    p_interacted: interacted,
  })
  if (error) throw error
  return parseListenAnswer(data)
}
