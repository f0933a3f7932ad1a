import { supabase } from './client.ts'
import { jsonAs } from './rpc.ts'

/** The server's answer to a burn: the attempt's remix, its status and the balance after it. */
export interface RemixBurn {
  remix_id: string
  status: 'burned' | 'rendered' | 'refunded'
  balance: number
  /** False when this attempt key had already been charged (a retry, a second tab, a double click). */
  charged: boolean
}

/** The remix cost as the server enforces it (SQL public.remix_rules(), the one source). */
export async function fetchRemixCost(): Promise<number> {
  const { data, error } = await supabase().rpc('remix_rules')
  if (error) throw error
  const cost = Number((data as { cost?: unknown } | null)?.cost)
  if (!Number.isFinite(cost) || cost <= 0) throw new Error('remix_rules answered without a valid cost')
  return cost
}

/** Burns the remix cost once per attempt key (the same key again never charges again). */
export async function burnRemix(source: string, attemptKey: string): Promise<RemixBurn> {
  const { data, error } = await supabase().rpc('remix_burn', { p_source: source, p_attempt_key: attemptKey })
  if (error) throw new Error(error.message.includes('insufficient_balance') ? 'insufficient_balance' : error.message)
  return jsonAs<RemixBurn>(data)
}

export async function completeRemix(remixId: string): Promise<void> {
  const { error } = await supabase().rpc('remix_complete', { p_remix_id: remixId })
  if (error) throw error
}

/** Gives back the burn of a remix that could not be produced (once; never after it rendered). */
export async function refundRemix(remixId: string): Promise<{ balance: number; refunded: boolean }> {
  const { data, error } = await supabase().rpc('remix_refund', { p_remix_id: remixId })
  if (error) throw error
  return data as { balance: number; refunded: boolean }
}
