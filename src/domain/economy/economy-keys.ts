// The economy slice's query keys: one per resource, each under its account, so a change can
// refresh exactly the views it touched (`invalidateQueries` on a prefix) and a sign-out's data
// never serves the next account.

const account = (userId: string) => ['economy', userId] as const

export const economyKeys = {
  /** Everything of one account's economy. */
  account,
  /** Every view of the account's ledger (the recent activity lists and the wallet's history). */
  ledger: (userId: string) => [...account(userId), 'ledger'] as const,
  /** The newest `limit` movements with their ids (Token Activity). */
  recentLedger: (userId: string, limit: number) => [...account(userId), 'ledger', 'recent', limit] as const,
  /** The wallet's history for its summaries (up to `limit` rows). */
  ledgerHistory: (userId: string, limit: number) => [...account(userId), 'ledger', 'history', limit] as const,
  claim: (userId: string) => [...account(userId), 'claim'] as const,
  nfts: (userId: string) => [...account(userId), 'nfts'] as const,
  creatorEarnings: (userId: string) => [...account(userId), 'creator-earnings'] as const,
  trust: (userId: string) => [...account(userId), 'trust'] as const,
  /** The chains the server offers; the same for everyone. */
  chains: () => ['economy', 'chains'] as const,
  /** One chain transaction's receipt, as the chain reports it (never changes once mined). */
  chainTransaction: (chain: string, hash: string) => ['economy', 'chain-tx', chain, hash] as const,
  /** Song titles for naming ledger rows; the same for everyone. */
  songTitles: () => ['economy', 'song-titles'] as const,
}
