/** Sample Token Activity shown until the wallet backend supplies the real ledger. */
export interface TokenActivityItem {
  id: string
  /** NONE: an event that moved no CUBE (a shared link opened without paying). */
  action: 'MINE' | 'BURN' | 'NONE'
  amount: number
  type: 'listen' | 'comment' | 'share' | 'remix' | 'create' | 'mint' | 'claim' | 'welcome' | 'other'
  song: string
  timestamp: string
}

export const SAMPLE_TOKEN_ACTIVITY: readonly TokenActivityItem[] = [
  { id: 'sample-1', action: 'MINE', amount: 2, type: 'listen', song: 'Neon Drift', timestamp: '2 min ago' },
  { id: 'sample-2', action: 'MINE', amount: 5, type: 'share', song: 'Orbital Haze', timestamp: '1 h ago' },
  { id: 'sample-3', action: 'MINE', amount: 10, type: 'create', song: 'Circuit Breaker', timestamp: '3 h ago' },
  { id: 'sample-4', action: 'BURN', amount: 50, type: 'remix', song: 'Low Tide Memory', timestamp: 'yesterday' },
]
