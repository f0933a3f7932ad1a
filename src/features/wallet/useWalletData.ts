import { useQuery } from '@tanstack/react-query'
import type { BlockchainConfig, ClaimStatus, LedgerRow, NftRow } from '../../backend/web3.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { economyKeys } from '../../domain/economy/economy-keys.ts'

export interface WalletData {
  claim: ClaimStatus | null
  nfts: NftRow[]
  ledger: LedgerRow[]
  chains: BlockchainConfig[]
  loaded: boolean
}

const NONE: never[] = []

/** How far back the wallet's summaries read the ledger. */
export const WALLET_HISTORY_ROWS = 1000

/**
 * The signed-in user's claim pot, NFTs, ledger history and the chain list: each its own cached
 * query, refreshed only by what changes it (a claim, a mint, a link of the wallet); a credited
 * listen writes its row into the cached history instead.
 */
export function useWalletData(): WalletData {
  const backend = useBackend()
  const userId = useSessionStore((s) => s.user?.id)
  const enabled = !!userId
  const id = userId ?? ''
  const claim = useQuery({ queryKey: economyKeys.claim(id), queryFn: () => backend.web3.fetchClaimStatus(), enabled })
  const nfts = useQuery({ queryKey: economyKeys.nfts(id), queryFn: () => backend.web3.fetchNfts(id), enabled })
  const ledger = useQuery({
    queryKey: economyKeys.ledgerHistory(id, WALLET_HISTORY_ROWS),
    queryFn: () => backend.web3.fetchLedgerSince(id, null, WALLET_HISTORY_ROWS),
    enabled,
  })
  const chains = useQuery({ queryKey: economyKeys.chains(), queryFn: () => backend.web3.fetchBlockchainConfigs(), enabled })
  const loaded = claim.isSuccess && nfts.isSuccess && ledger.isSuccess && chains.isSuccess
  return { claim: claim.data ?? null, nfts: nfts.data ?? NONE, ledger: ledger.data ?? NONE, chains: chains.data ?? NONE, loaded }
}
