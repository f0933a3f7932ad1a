import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

// The client's reward rules come from the server. A fake backend answers figures that differ from
// the documented fallback (daily cap 7, a listen qualifies at min(12 s, a quarter of the track),
// default reward 4, Neon Drift pays 9): every place that shows or applies a rule must follow it.

const SERVER_RULES = {
  listen: {
    qualify_seconds: 12,
    qualify_fraction: 0.25,
    daily_cap: 7,
    default_reward: 4,
    song_daily_limit: 3,
    daily_cube_cap: 33,
    inactive_after_seconds: 1800,
    heartbeat_grace_seconds: 60,
  },
}
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
import { rewardAmountFor } from './reward-store.ts'
import { useSessionStore } from '../session/session-store.ts'
import { applyListenAnswer } from './listen-reporter.ts'
import type { ListenAnswer } from '../../backend/wallet.ts'
import {
  FALLBACK_REWARD_RULES,
  dailyCapStatus,
  loadRewardRules,
  listenRulesText,
  qualifyRuleText,
  startRewardRules,
  useRewardRules,
} from './reward-rules.ts'

const neonDrift = SAMPLE_SONGS.find((s) => s.id === 'neon-drift')!

beforeEach(() => {
  toasts.length = 0
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

  it('the fallback is what reward_rules() in supabase/schemas/ says (so it documents the server)', () => {
    const schemas = import.meta.glob<string>('../../../supabase/schemas/*.sql', { query: '?raw', import: 'default', eager: true })
    const defining = Object.keys(schemas).filter((f) => /function public\.reward_rules\(\)/.test(schemas[f]!))
    expect(defining).toHaveLength(1)
    const sql = schemas[defining[0]!]!
    const body = sql
      .slice(sql.search(/function public\.reward_rules\(\)/))
      .split('$$')[1]!
      .split("'creator'")[0]!
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
    expect(listenRulesText(useRewardRules.getState().rules.listen)).toBe(
      'A listen counts after 12 seconds (or 25% of a short track). Each song earns 3 times a day, up to 7 listens and 33 CUBE a day (UTC).',
    )
    // '+N CUBE' on the cards, Now Playing and the pop: the server's reward beats the catalogue's 2.
    expect(neonDrift.reward).toBe(2)
    expect(rewardAmountFor(neonDrift, {})).toBe(9)
    expect(rewardAmountFor({ ...neonDrift, id: 'idb:own-recording', reward: undefined }, {})).toBe(4)
  })

  it('a capped answer without a figure of its own shows the server’s cap (7/7)', () => {
    const answer: ListenAnswer = {
      session_id: 's1',
      heard_seconds: 13,
      ended: false,
      credited: 0,
      balance: 100,
      daily_earned: 28,
      listens_today: 7,
      daily_cap: null,
      cap_reached: true,
      reason: 'daily_cap',
      needs_interaction: false,
    }
    applyListenAnswer('neon-drift', answer)
    expect(toasts).toContain('Daily listening cap reached (7/7)')
    expect(useSessionStore.getState().lastListen).toMatchObject({ capReached: true, dailyCap: 7 })
  })

  it('a listen refused by the CUBE cap says so with the server’s figure', () => {
    const answer: ListenAnswer = {
      session_id: 's2',
      heard_seconds: 13,
      ended: false,
      credited: 0,
      balance: 133,
      daily_earned: 33,
      listens_today: 5,
      daily_cap: 7,
      cap_reached: false,
      reason: 'cube_cap',
      needs_interaction: false,
    }
    applyListenAnswer('neon-drift', answer)
    expect(toasts).toContain("Listening has paid today's most (33 CUBE)")
    expect(useSessionStore.getState().lastListen).toMatchObject({ credited: 0, reason: 'cube_cap' })
  })
})
