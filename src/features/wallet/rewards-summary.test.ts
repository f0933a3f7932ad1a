import { describe, expect, it } from 'vitest'
import { rarityOf, summariseRewards } from './rewards-summary.ts'

describe('rewards summary from the ledger', () => {
  it('daily / weekly / total, a 7-day series and the split by reason; spends do not count', () => {
    const now = new Date('2026-11-23T12:00:00Z')
    const s = summariseRewards(
      [
        { amount: 2, reason: 'listen', created_at: '2026-11-23T10:00:00Z' },
        { amount: 50, reason: 'wallet_welcome', created_at: '2026-11-23T09:00:00Z' },
        { amount: -100, reason: 'mint', created_at: '2026-11-23T09:30:00Z' },
        { amount: 10, reason: 'claim', created_at: '2026-11-20T09:00:00Z' },
        { amount: 100, reason: 'welcome', created_at: '2026-11-01T09:00:00Z' },
      ],
      now,
    )
    expect(s.daily).toBe(52)
    expect(s.weekly).toBe(62)
    expect(s.total).toBe(162)
    expect(s.days.map((d) => d.amount)).toEqual([0, 0, 0, 10, 0, 0, 52])
    expect(s.days[0]!.day).toBe('2026-11-17')
    expect(s.sources.map((x) => x.reason)).toEqual(['welcome', 'wallet_welcome', 'claim', 'listen'])
  })

  it('rarity is a pure function of the token id with the documented shares', () => {
    expect(rarityOf('1')).toBe(rarityOf('1'))
    const counts: Record<string, number> = {}
    for (let i = 0; i < 1000; i++) counts[rarityOf(String(i))] = (counts[rarityOf(String(i))] ?? 0) + 1
    expect(counts).toEqual({ Legendary: 20, Epic: 80, Rare: 200, Common: 700 })
  })
})
