import { rpcUrlOf, type MinterFor } from '../../functions/_shared/chain.ts'
import { evmMinter } from '../../functions/mint/evm-minter.ts'
import type { Database } from '../core/db.ts'
import { NFT_ARTIFACT, startEmbeddedChain, type EmbeddedChain } from './embedded-chain.ts'

export type { EmbeddedChain }

/**
 * Starts the embedded chain, records the freshly deployed contract on the blockchain_configs rows
 * whose network in use points at it (RPC URL 'embedded'), and answers which chains the server can mint on: those
 * rows; every other chain has no provider on the local backend.
 */
export async function embeddedMinters(db: Database): Promise<{ chain: EmbeddedChain; minterFor: MinterFor }> {
  const chain = await startEmbeddedChain()
  await db.query(
    'update public.blockchain_configs set contract_address = $1 ' +
      "where (case when testnet then testnet_rpc_url else mainnet_rpc_url end) = 'embedded'",
    [chain.contractAddress],
  )
  const minter = evmMinter(chain.minter, chain.contractAddress, NFT_ARTIFACT.abi)
  return { chain, minterFor: (config) => (rpcUrlOf(config) === 'embedded' ? minter : undefined) }
}
