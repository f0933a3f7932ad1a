import { fetchSongs } from './profile.ts'
import { supabase } from './client.ts'

/** The listening rules as the server enforces them (SQL public.reward_rules(), the one source). */
export interface ListenRules {
  /** A listen qualifies once it has really played min(qualify_seconds, qualify_fraction × the track's length). */
  qualify_seconds: number
  qualify_fraction: number
  /** Credited listens per user and UTC day. */
  daily_cap: number
  /** CUBE per qualifying listen of a song without a reward of its own. */
  default_reward: number
  /** Credited listens of one song per listener and UTC day. */
  song_daily_limit: number
  /** The most CUBE listening pays per listener and UTC day (the listen that reaches it pays the rest). */
  daily_cube_cap: number
  /** Without a user interaction for this long, listening stops earning ("Still listening?"). */
  inactive_after_seconds: number
  /** The most one gap between two reports of a playing session counts. */
  heartbeat_grace_seconds: number
}

export interface RewardRules {
  listen: ListenRules
  /** CUBE per qualifying listen of each catalogue song (public.songs.reward). */
  songs: Readonly<Record<string, number>>
}

const LISTEN_KEYS = [
  'qualify_seconds',
  'qualify_fraction',
  'daily_cap',
  'default_reward',
  'song_daily_limit',
  'daily_cube_cap',
  'inactive_after_seconds',
  'heartbeat_grace_seconds',
] as const

/** Checks the server's answer; throws (so the caller keeps what it had) unless every rule is a positive number. */
export function parseRewardRules(answer: unknown, songs: Iterable<{ id: string; reward: unknown }> = []): RewardRules {
  const listen = (answer as { listen?: Record<string, unknown> } | null)?.listen
  const rules = {} as ListenRules
  for (const key of LISTEN_KEYS) {
    const v = Number(listen?.[key])
    if (!Number.isFinite(v) || v <= 0) throw new Error(`reward_rules answered without a valid listen.${key}`)
    rules[key] = v
  }
  const rewards: Record<string, number> = {}
  for (const s of songs) {
    const v = Number(s.reward)
    if (Number.isFinite(v) && v >= 0) rewards[s.id] = v
  }
  return { listen: rules, songs: rewards }
}

/** The reward rules and every catalogue song's reward, as the server states them (visitors included). */
export async function fetchRewardRules(): Promise<RewardRules> {
  const [{ data, error }, songs] = await Promise.all([supabase().rpc('reward_rules'), fetchSongs()])
  if (error) throw error
  return parseRewardRules(data, songs.values())
}
