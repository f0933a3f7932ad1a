import { useEffect, useState } from 'react'
import {
  fetchBlockchainConfigs,
  fetchClaimStatus,
  fetchLedgerSince,
  fetchNfts,
  type BlockchainConfig,
  type ClaimStatus,
  type LedgerRow,
  type NftRow,
} from '../../backend/web3.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'

export interface WalletData {
  claim: ClaimStatus | null
  nfts: NftRow[]
  ledger: LedgerRow[]
  chains: BlockchainConfig[]
  loaded: boolean
}

const EMPTY: WalletData = { claim: null, nfts: [], ledger: [], chains: [], loaded: false }

/** The signed-in user's claim pot, NFTs, ledger and the chain list, reloaded when activity changes. */
export function useWalletData(): WalletData {
  const userId = useSessionStore((s) => s.user?.id)
  const version = useSessionStore((s) => s.activityVersion)
  const [data, setData] = useState<WalletData & { userId?: string }>(EMPTY)
  useEffect(() => {
    if (!userId) return
    let live = true
    Promise.all([fetchClaimStatus(), fetchNfts(userId), fetchLedgerSince(userId, null, 1000), fetchBlockchainConfigs()])
      .then(([claim, nfts, ledger, chains]) => live && setData({ claim, nfts, ledger, chains, loaded: true, userId }))
      .catch((error: unknown) => console.warn('wallet data failed to load', error))
    return () => {
      live = false
    }
  }, [userId, version])
  return data.userId === userId ? data : EMPTY
}
