import type { SupabaseClient } from '@supabase/supabase-js'

// The server's time (edge function server-clock), what "Play together" measures this page's clock
// offset against (src/lib/clock-offset.ts). One GET, never cached, answered by anyone.

/** The server's time now, in ms since 1970; throws in words when the answer is not a time. */
export async function fetchServerTime(db: SupabaseClient): Promise<number> {
  const { data, error } = await db.functions.invoke<{ now?: unknown }>('server-clock', { method: 'GET' })
  if (error) throw new Error(`Could not ask the server for its time: ${error.message}`)
  const now = data?.now
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new Error('The server answered its time with something that is not one.')
  return now
}
