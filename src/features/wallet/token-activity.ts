import type { ShareLink } from '../../backend/sharing.ts'
import { OPEN_NOT_PAID } from '../../domain/economy/share-open-reasons.ts'

// Token Activity rows: what the ledger says, in the shape the UI lists (MINE for credits, BURN for debits).

export type ActivityType = 'listen' | 'comment' | 'share' | 'remix' | 'create' | 'mint' | 'claim' | 'welcome' | 'other'

export interface TokenActivityItem {
  id: string
  /** NONE: something happened that moved no CUBE (a shared link opened without paying). */
  action: 'MINE' | 'BURN' | 'NONE'
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
  reply: 'Reply in a comment thread',
  like: 'Liked a comment',
  comment_goal: 'Daily comment goal bonus',
}

const PLATFORM_NAMES: Record<string, string> = {
  twitter: 'Twitter',
  facebook: 'Facebook',
  copy_link: 'a copied link',
  qr: 'a QR code',
  share_now: 'Share Now',
}

// Internal ids (UUIDs, published-song ids, device keys) never reach the screen.
const looksLikeId = (ref: string) => /pub-[0-9a-f]{8}|idb:|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}|^[0-9a-f]{32}$/i.test(ref)
const humanise = (reason: string) => {
  const words = reason.replace(/[_-]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'CUBE movement'
}

/** What a ledger movement was for, in words: song titles, platform names, readable reasons. */
export function describeLedgerEntry(reason: string, reference: string | null, songTitle: (songId: string) => string | undefined): string {
  const ref = reference ?? ''
  const title = (id: string) => songTitle(id) ?? (id.startsWith('idb:') ? 'A track from your Library' : looksLikeId(id) ? 'A song' : id)
  switch (reason) {
    case 'listen':
      return ref ? title(ref) : 'Listening'
    case 'remix':
      return ref ? `Remix of ${title(ref)}` : 'Remix'
    case 'remix_refund':
      return ref ? `Remix refunded: ${title(ref)}` : 'Remix refunded'
    case 'comment':
      return ref && !looksLikeId(ref) ? `Comment on ${title(ref)}` : 'Comment'
    case 'share': {
      const [kind = '', item = '', platform = ''] = ref.split(':')
      const what = kind === 'user' ? 'a profile' : item ? title(item) : 'a song'
      return `Shared ${what}${PLATFORM_NAMES[platform] ? ` via ${PLATFORM_NAMES[platform]}` : ''}`
    }
    default:
      return (
        DESCRIPTION_BY_REASON[reason] ?? (ref && !looksLikeId(ref) && ref !== reason ? `${humanise(reason)}: ${ref}` : humanise(reason))
      )
  }
}

export function ledgerToActivity(entry: LedgerLike, songTitle: (songId: string) => string | undefined): TokenActivityItem {
  const type = TYPE_BY_REASON[entry.reason] ?? 'other'
  const song = describeLedgerEntry(entry.reason, entry.reference, songTitle)
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

/**
 * What the last open of each shared link did when it paid nothing (the server records why on the
 * link: open_share), as activity rows beside the ledger's; a paid open is the ledger's share row.
 */
export function shareOpenActivity(
  links: readonly Pick<ShareLink, 'id' | 'item_type' | 'item_id' | 'platform' | 'last_open_reason' | 'last_open_at'>[],
  songTitle: (songId: string) => string | undefined,
): TokenActivityItem[] {
  const rows: TokenActivityItem[] = []
  for (const link of links) {
    const why = link.last_open_reason ? OPEN_NOT_PAID[link.last_open_reason] : undefined
    if (!why || !link.last_open_at) continue
    const shared = describeLedgerEntry('share', `${link.item_type}:${link.item_id}:${link.platform}`, songTitle)
    rows.push({
      id: `share-open:${link.id}:${link.last_open_at}`,
      action: 'NONE',
      amount: 0,
      type: 'share',
      song: `${shared}: opened, not paid (${why})`,
      timestamp: link.last_open_at,
    })
  }
  return rows
}

/** Activity rows newest first (ISO instants compare as text). */
export const newestFirst = (rows: readonly TokenActivityItem[]): TokenActivityItem[] =>
  [...rows].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))
