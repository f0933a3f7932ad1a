import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

// The client's reward rules come from the server. A fake backend answers figures that differ from
// the documented fallback (daily cap 7, a listen qualifies at min(12 s, a quarter of the track),
// default reward 4, Neon Drift pays 9): every place that shows or applies a rule must follow it.

const SERVER_RULES = { listen: { qualify_seconds: 12, qualify_fraction: 0.25, daily_cap: 7, default_reward: 4 } }
const rpcCalls: string[] = []
vi.mock('../../backend/client.ts', () => ({
  supabase: () => ({
    rpc: async (name: string) => {
      rpcCalls.push(name)
      return name === 'reward_rules' ? { data: SERVER_RULES, error: null } : { data: null, error: new Error(`unexpected rpc ${name}`) }
    },
    from: (table: string) => ({
      select: async () => ({
        data:
          table === 'songs'
            ? [{ id: 'neon-drift', title: 'Neon Drift', artist: 'Synthwave Collective', duration_seconds: 85, reward: 9 }]
            : [],
        error: null,
      }),
    }),
  }),
}))
const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => {
  const toast = Object.assign((m: string) => void toasts.push(m), {
    error: (m: string) => void toasts.push(`error:${m}`),
    success: (m: string) => void toasts.push(`success:${m}`),
  })
  return { notify: toast }
})

import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { attachDeck } from '../playback/player-service.ts'
import { rewardAmountFor } from './reward-store.ts'
import { usePlayerStore } from '../playback/player-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import type { ListenAnswer } from '../../backend/wallet.ts'
import { startListenReporter } from './listen-reporter.ts'
import { SilentDeck } from '../playback/silent-deck.ts'
import { qualifyingSeconds } from './listen-tracker.ts'
import {
  FALLBACK_REWARD_RULES,
  dailyCapStatus,
  loadRewardRules,
  qualifyRuleText,
  startRewardRules,
  useRewardRules,
} from './reward-rules.ts'

let clock = 0
const deck = new SilentDeck()
const calls: { songId: string; seconds: number }[] = []
let nextAnswer: Partial<ListenAnswer> = {}
const flush = () => new Promise((r) => setTimeout(r, 0))
const neonDrift = SAMPLE_SONGS.find((s) => s.id === 'neon-drift')!

/** Plays the current song for `seconds`, wall clock and media clock together, 4 updates a second. */
function playFor(seconds: number) {
  for (let i = 0; i < seconds * 4; i++) {
    clock += 250
    const { position } = usePlayerStore.getState()
    deck.listener?.({ type: 'time', position: position + 0.25, duration: 85 })
  }
}

beforeAll(() => {
  attachDeck(deck)
  startListenReporter({
    now: () => clock,
    record: async (songId, seconds) => {
      calls.push({ songId, seconds })
      return {
        credited: 9,
        balance: 109,
        daily_earned: 9,
        listens_today: 1,
        daily_cap: 7,
        cap_reached: false,
        reason: 'credited',
        ...nextAnswer,
      }
    },
  })
})

beforeEach(() => {
  calls.length = 0
  toasts.length = 0
  nextAnswer = {}
  usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, position: 0, duration: 0, playId: 0 })
  useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
  useSessionStore.getState().setWallet({ balance: 100, daily_earned: 0, listens_today: 0 })
})

describe('reward rules before the server answers', () => {
  it('are the documented fallback, labelled as such, and stay so when the server cannot be reached', async () => {
    expect(useRewardRules.getState()).toMatchObject({ source: 'fallback', rules: FALLBACK_REWARD_RULES })
    vi.spyOn(console, 'warn').mockImplementationOnce(() => {})
    expect(await loadRewardRules(() => Promise.reject(new Error('offline')))).toBe(false)
    expect(useRewardRules.getState()).toMatchObject({ source: 'fallback', rules: FALLBACK_REWARD_RULES })
  })

  it('the fallback is what the newest migration’s reward_rules() says (so it documents the server)', () => {
    const migrations = import.meta.glob<string>('../../../supabase/migrations/*.sql', { query: '?raw', import: 'default', eager: true })
    const defining = Object.keys(migrations)
      .sort()
      .filter((f) => /function public\.reward_rules\(\)/.test(migrations[f]!))
    expect(defining.length).toBeGreaterThan(0)
    const sql = migrations[defining.at(-1)!]!
    const body = sql.slice(sql.search(/function public\.reward_rules\(\)/)).split('$$')[1]!
    const figures = Object.fromEntries([...body.matchAll(/'(\w+)',\s*(-?[\d.]+)/g)].map((m) => [m[1], Number(m[2])]))
    expect(figures).toEqual(FALLBACK_REWARD_RULES.listen)
  })
})

describe('reward rules once the server has answered with other figures', () => {
  beforeAll(async () => {
    startRewardRules()
    await vi.waitFor(() => expect(useRewardRules.getState().source).toBe('server'))
  })

  it('are read through rpc reward_rules and the songs table, and replace the fallback', () => {
    expect(rpcCalls).toEqual(['reward_rules'])
    expect(useRewardRules.getState().rules).toEqual({ listen: SERVER_RULES.listen, songs: { 'neon-drift': 9 } })
  })

  it('the cap note, the qualifying rule and the per-song reward use the server’s figures', () => {
    const cap = useRewardRules.getState().rules.listen.daily_cap
    expect(dailyCapStatus(7, cap)).toEqual({ capped: true, progress: 7, note: 'Daily listening cap reached (7/7)' })
    expect(dailyCapStatus(6, cap).capped).toBe(false)
    expect(qualifyRuleText(useRewardRules.getState().rules.listen)).toBe('12 seconds (or 25% of a short track)')
    expect(qualifyingSeconds(85, useRewardRules.getState().rules.listen)).toBe(12)
    expect(qualifyingSeconds(40, useRewardRules.getState().rules.listen)).toBe(10)
    // '+N CUBE' on the cards, Now Playing and the pop: the server's reward beats the catalogue's 2.
    expect(neonDrift.reward).toBe(2)
    expect(rewardAmountFor(neonDrift, {})).toBe(9)
    expect(rewardAmountFor({ ...neonDrift, id: 'idb:own-recording', reward: undefined }, {})).toBe(4)
  })

  it('the reporter qualifies a listen at the server’s threshold (12 s, not 30 s)', async () => {
    usePlayerStore.getState().playSong(neonDrift)
    await flush()
    playFor(11.5)
    await flush()
    expect(calls).toHaveLength(0)
    playFor(0.5)
    await flush()
    expect(calls).toEqual([{ songId: 'neon-drift', seconds: 12 }])
    expect(toasts).toContain('success:+9 CUBE')
  })

  it('a capped answer without a figure of its own shows the server’s cap (7/7)', async () => {
    nextAnswer = { credited: 0, listens_today: 7, daily_cap: null, cap_reached: true, reason: 'daily_cap' }
    usePlayerStore.getState().playSong(neonDrift)
    await flush()
    playFor(13)
    await flush()
    expect(calls).toHaveLength(1)
    expect(toasts).toContain('Daily listening cap reached (7/7)')
    expect(useSessionStore.getState().lastListen).toMatchObject({ capReached: true, dailyCap: 7 })
  })
})
