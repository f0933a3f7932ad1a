import type { WalletBasics } from '../../domain/session/session-store.ts'
import type { TokenActivityItem } from './token-activity.ts'

// What visitors see instead of a wallet: clearly sample figures (labelled as a preview where shown).
export const SAMPLE_WALLET: WalletBasics = { balance: 158, daily_earned: 24, listens_today: 13 }

export const SAMPLE_ACTIVITY: readonly TokenActivityItem[] = [
  { id: 'sample-1', action: 'MINE', amount: 2, type: 'listen', song: 'Neon Drift', timestamp: '2 min ago' },
  { id: 'sample-2', action: 'MINE', amount: 5, type: 'comment', song: 'Circuit Breaker', timestamp: '15 min ago' },
  { id: 'sample-3', action: 'MINE', amount: 2, type: 'listen', song: 'Low Tide Memory', timestamp: '32 min ago' },
  { id: 'sample-4', action: 'BURN', amount: 50, type: 'remix', song: 'Orbital Haze', timestamp: '1 h ago' },
  { id: 'sample-5', action: 'MINE', amount: 10, type: 'share', song: 'Rainy Terminal', timestamp: '2 h ago' },
  { id: 'sample-6', action: 'MINE', amount: 2, type: 'listen', song: 'Circuit Breaker', timestamp: '3 h ago' },
  { id: 'sample-7', action: 'MINE', amount: 3, type: 'listen', song: 'Neon Drift', timestamp: '5 h ago' },
]
