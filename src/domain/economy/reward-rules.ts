/**
 * The listening-reward rules the client shows and applies: the qualifying listening time, the daily
 * cap, the reward per song. The SERVER is their only source (SQL public.reward_rules() and
 * public.songs.reward, read once per page through fetchRewardRules()); every place in the app that
 * shows or uses a rule reads it from this store.
 *
 *   useRewardRules                  { rules, source: 'fallback' | 'server' }
 *   useListenRules()                the listening rules, for components
 *   startRewardRules()              asks the server once per page (a few retries when offline)
 *   songReward(song, rules)         CUBE per qualifying listen of a song
 *   dailyCapStatus(listens, cap)    whether today's rewarded listens are used up, and the note
 *   capNote(listens, cap)           'Daily listening cap reached (20/20)'
 *   qualifyRuleText(listen)         '30 seconds (or half a short track)'
 *   listenRulesText(listen)         'A listen counts after … up to 20 listens and 50 CUBE a day (UTC).'
 */
import { create } from 'zustand'
import type { Song } from '../../lib/catalogue/song.ts'
import { fetchRewardRules, type ListenRules, type RewardRules } from '../../backend/rewards.ts'

export type { ListenRules, RewardRules }

/**
 * FALLBACK ONLY, not a second source: the documented defaults, i.e. what public.reward_rules()
 * answers today (reward-rules.test.ts checks them against the migrations). They are what the app
 * shows until the server has answered (the first moments of a page, offline, a server without
 * reward_rules()); the server's answer replaces them and `source` says which one is in use. Per-song
 * rewards fall back to the generated catalogue's figures (src/lib/catalogue/sample-songs.ts).
 */
export const FALLBACK_REWARD_RULES: RewardRules = Object.freeze({
  listen: Object.freeze({
    qualify_seconds: 30,
    qualify_fraction: 0.5,
    daily_cap: 20,
    default_reward: 2,
    song_daily_limit: 2,
    daily_cube_cap: 50,
    inactive_after_seconds: 3600,
    heartbeat_grace_seconds: 90,
  }),
  songs: Object.freeze({}),
})

interface RewardRulesState {
  rules: RewardRules
  /** 'fallback' until the server has answered. */
  source: 'fallback' | 'server'
  setServerRules: (rules: RewardRules) => void
}

export const useRewardRules = create<RewardRulesState>()((set) => ({
  rules: FALLBACK_REWARD_RULES,
  source: 'fallback',
  setServerRules: (rules) => set({ rules, source: 'server' }),
}))

export const useListenRules = (): ListenRules => useRewardRules((s) => s.rules.listen)

/** Asks the server for the rules; true once they are in the store (false keeps what was there). */
export async function loadRewardRules(fetchRules: () => Promise<RewardRules> = fetchRewardRules): Promise<boolean> {
  try {
    useRewardRules.getState().setServerRules(await fetchRules())
    return true
  } catch (error) {
    console.warn('reward rules unavailable, showing the defaults until the server answers', error)
    return false
  }
}

const RETRY_MS = [5_000, 30_000, 120_000, 600_000] as const
let started = false

/** Loads the rules once per page, retrying a few times while the server cannot be reached. */
export function startRewardRules(fetchRules: () => Promise<RewardRules> = fetchRewardRules): void {
  if (started) return
  started = true
  const attempt = async (n: number) => {
    if (await loadRewardRules(fetchRules)) return
    const delay = RETRY_MS[n]
    if (delay !== undefined) setTimeout(() => void attempt(n + 1), delay)
  }
  void attempt(0)
}

/** CUBE per qualifying listen: the server's figure for the song, else the catalogue's, else the default. */
export function songReward(song: Pick<Song, 'id' | 'reward'> | null | undefined, rules: RewardRules): number {
  return (song ? (rules.songs[song.id] ?? song.reward) : undefined) ?? rules.listen.default_reward
}

export const capNote = (listensToday: number, cap: number): string => `Daily listening cap reached (${Math.min(listensToday, cap)}/${cap})`

export function dailyCapStatus(listensToday: number, cap: number): { capped: boolean; progress: number; note: string } {
  return { capped: listensToday >= cap, progress: Math.min(listensToday, cap), note: capNote(listensToday, cap) }
}

/** The listening rules in plain words, as the server applies them. */
export function listenRulesText(listen: ListenRules): string {
  const times = listen.song_daily_limit === 2 ? 'twice' : `${listen.song_daily_limit} times`
  return (
    `A listen counts after ${qualifyRuleText(listen)}. Each song earns ${times} a day, up to ${listen.daily_cap} listens ` +
    `and ${listen.daily_cube_cap} CUBE a day (UTC).`
  )
}

/** When a listen counts, in words: '30 seconds (or half a short track)'. */
export function qualifyRuleText(listen: ListenRules): string {
  const share = listen.qualify_fraction === 0.5 ? 'half' : `${Math.round(listen.qualify_fraction * 100)}% of`
  return `${listen.qualify_seconds} seconds (or ${share} a short track)`
}
