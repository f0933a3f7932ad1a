// The Rewards tab's figures, computed from the user's ledger rows the server returned.

export interface LedgerPoint {
  amount: number
  reason: string
  created_at: string
}

export interface RewardsSummary {
  daily: number
  weekly: number
  total: number
  /** The last 7 UTC days, oldest first: earnings (credits only) per day. */
  days: { day: string; amount: number }[]
  /** Credits by reason, largest first. */
  sources: { reason: string; amount: number; share: number }[]
}

const DAY_MS = 86_400_000

export function summariseRewards(rows: readonly LedgerPoint[], now: Date = new Date()): RewardsSummary {
  const today = now.toISOString().slice(0, 10)
  const start = Date.parse(`${today}T00:00:00.000Z`) - 6 * DAY_MS
  const days = Array.from({ length: 7 }, (_, i) => ({ day: new Date(start + i * DAY_MS).toISOString().slice(0, 10), amount: 0 }))
  const byReason = new Map<string, number>()
  let total = 0
  for (const r of rows) {
    if (r.amount <= 0) continue
    total += r.amount
    byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + r.amount)
    const slot = days.find((d) => d.day === r.created_at.slice(0, 10))
    if (slot) slot.amount += r.amount
  }
  const weekly = days.reduce((s, d) => s + d.amount, 0)
  const sources = [...byReason]
    .map(([reason, amount]) => ({ reason, amount, share: total ? amount / total : 0 }))
    .sort((a, b) => b.amount - a.amount)
  return { daily: days[6]!.amount, weekly, total, days, sources }
}

export type Rarity = 'Common' | 'Rare' | 'Epic' | 'Legendary'

/**
 * An NFT's rarity, derived only from its token id so every viewer sees the same: the id times
 * 2654435761 (Knuth's multiplicative hash) modulo 100 gives a roll r; r < 2 Legendary, r < 10 Epic,
 * r < 30 Rare, otherwise Common (2 / 8 / 20 / 70 %).
 */
export function rarityOf(tokenId: string): Rarity {
  let id: bigint
  try {
    id = BigInt(tokenId)
  } catch {
    id = 0n
  }
  const roll = Number((id * 2654435761n) % 100n)
  return roll < 2 ? 'Legendary' : roll < 10 ? 'Epic' : roll < 30 ? 'Rare' : 'Common'
}
