import { useMachine } from '@xstate/react'
import { useEffect, useMemo, useState } from 'react'
import {
  fetchBlockchainConfigs,
  fetchMintableChains,
  fetchMintRequests,
  mintNft,
  type BlockchainConfig,
  type MintRequestRow,
} from '../../backend/web3.ts'
import { serverText } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { refreshWallet } from '../../domain/session/session-sync.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { generateDescription, type TrackFacts } from './describe.ts'
import { createMintMachine } from './mint-machine.ts'
import { walletChanged } from '../../domain/economy/wallet-cache.ts'

// The app's wiring of the mint machine and what the minting studio reads from the server: the
// chains, the user's recent mints, and the site's Text AI for descriptions.

/** When blockchain_configs cannot be read: the reference's defaults (all enabled, all testnets). */
export const DEFAULT_CHAINS: BlockchainConfig[] = [
  ['ethereum', 'Ethereum', 'Ξ', 'ETH'],
  ['solana', 'Solana', '◎', 'SOL'],
  ['bitcoin', 'Bitcoin', '₿', 'BTC'],
  ['polygon', 'Polygon', '⬡', 'MATIC'],
  ['binance', 'BNB Chain', '◆', 'BNB'],
  ['avalanche', 'Avalanche', '▲', 'AVAX'],
].map(([name, display_name, icon, native_token]) => ({
  name: name!,
  display_name: display_name!,
  icon: icon!,
  native_token: native_token!,
  chain_id: null,
  mainnet_rpc_url: null,
  testnet_rpc_url: null,
  explorer_url: null,
  contract_address: null,
  testnet: true,
  enabled: true,
  embedded: false,
}))

/** The mint machine with the server's mint call; a minted token refreshes the wallet and activity. */
export function useMintMachine() {
  const machine = useMemo(() => createMintMachine({ mint: mintNft }), [])
  return useMachine(
    machine.provide({
      actions: {
        notifyError: ({ context }) => context.error && notify.error(context.error.title, { description: context.error.description }),
        notifyMinted: ({ context }) => {
          notify.success('NFT Minted!', {
            description: `Token #${context.request?.token_id ?? '?'} is on ${context.request?.blockchain ?? 'chain'}.`,
          })
          const userId = useSessionStore.getState().user?.id
          if (userId) void refreshWallet(userId)
          void walletChanged(userId)
        },
      },
    }),
  )
}

/** The chains to mint on: the server's list, or the defaults when it cannot be read. */
/** The chains to offer, and for each one the server cannot mint on, why (shown, the option disabled). */
export function useMintChains() {
  const [chains, setChains] = useState<BlockchainConfig[]>(DEFAULT_CHAINS)
  const [unavailable, setUnavailable] = useState<ReadonlyMap<string, string>>(new Map())
  useEffect(() => {
    fetchBlockchainConfigs()
      .then((rows) => rows.length && setChains(rows))
      .catch((error: unknown) => console.warn('blockchain_configs unavailable, using the defaults', error))
    fetchMintableChains()
      .then((list) => setUnavailable(new Map(list.filter((c) => !c.mintable).map((c) => [c.name, c.reason ?? 'Not available']))))
      .catch((error: unknown) => console.warn('mintable chains unknown', error))
  }, [])
  return { chains, unavailable }
}

/** The signed-in user's last mints, read again whenever `version` changes (each machine step). */
export function useRecentMints(signedIn: boolean, version: unknown) {
  const [recent, setRecent] = useState<MintRequestRow[]>([])
  useEffect(() => {
    if (!signedIn) return
    fetchMintRequests(10)
      .then(setRecent)
      .catch((error: unknown) => console.warn('recent mints failed', error))
  }, [signedIn, version])
  return recent
}

/** A description for the NFT: the site's Text AI for a signed-in user, otherwise written on this device. */
export const describeNftWithAi = (name: string, track: TrackFacts | null) =>
  generateDescription(name, track, (prompt) => (useSessionStore.getState().user ? serverText(supabase(), prompt) : Promise.resolve(null)))
