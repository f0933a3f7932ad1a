// Token Activity rows: what the ledger says, in the shape the UI lists (MINE for credits, BURN for debits).

export type ActivityType = 'listen' | 'comment' | 'share' | 'remix' | 'create' | 'mint' | 'claim' | 'welcome' | 'other'

export interface TokenActivityItem {
  id: string
  action: 'MINE' | 'BURN'
  /** Always positive; the action carries the sign. */
  amount: number
  type: ActivityType
  /** What the movement was for: a song title, or a short description. */
  song: string
  /** ISO instant, or relative text for sample rows. */
  timestamp: string
}

export interface LedgerLike {
  id: string
  amount: number
  reason: string
  reference: string | null
  created_at: string
}

const TYPE_BY_REASON: Record<string, ActivityType> = {
  listen: 'listen',
  comment: 'comment',
  reply: 'comment',
  like: 'comment',
  share: 'share',
  remix: 'remix',
  mint: 'mint',
  mint_refund: 'mint',
  claim: 'claim',
  wallet_welcome: 'welcome',
  create: 'create',
  welcome: 'welcome',
}

const DESCRIPTION_BY_REASON: Record<string, string> = {
  welcome: 'Welcome bonus',
  claim: 'Rewards claimed',
  proposal: 'Governance proposal',
  mint: 'NFT minted',
  mint_refund: 'NFT mint refunded',
  wallet_welcome: 'Wallet welcome bonus',
}

export function ledgerToActivity(entry: LedgerLike, songTitle: (songId: string) => string | undefined): TokenActivityItem {
  const type = TYPE_BY_REASON[entry.reason] ?? 'other'
  const ref = entry.reference ?? ''
  const song =
    entry.reason === 'listen' || entry.reason === 'remix'
      ? (songTitle(ref) ?? (ref || 'Unknown track'))
      : (DESCRIPTION_BY_REASON[entry.reason] ?? (ref || entry.reason))
  return {
    id: entry.id,
    action: entry.amount < 0 ? 'BURN' : 'MINE',
    amount: Math.abs(entry.amount),
    type,
    song,
    timestamp: entry.created_at,
  }
}

/** 'just now', '5 min ago', '3 h ago', '2 d ago'; text that is not a date is shown as it is. */
