import type { MinterFor } from '../../functions/_shared/chain.ts'
import { evmMinter } from '../../functions/mint/evm-minter.ts'
import type { Database } from '../core/db.ts'
import { NFT_ARTIFACT, startEmbeddedChain, type EmbeddedChain } from './embedded-chain.ts'

export type { EmbeddedChain }

/**
 * Starts the embedded chain, records the freshly deployed contract on the blockchain_configs rows
 * it backs (`embedded`), and answers which chains the server can mint on: those rows; every other
 * chain has no provider on the local backend.
 */
export async function embeddedMinters(db: Database): Promise<{ chain: EmbeddedChain; minterFor: MinterFor }> {
  const chain = await startEmbeddedChain()
  await db.query('update public.blockchain_configs set contract_address = $1 where embedded', [chain.contractAddress])
  const minter = evmMinter(chain.minter, chain.contractAddress, NFT_ARTIFACT.abi)
  return { chain, minterFor: (config) => (config.embedded ? minter : undefined) }
}

/**
 * Writes where this server serves the chain (`<serverUrl>/chain/rpc`) into the RPC URL of the
 * network in use of every row the chain backs, so a wallet or tool reading blockchain_configs finds
 * a URL it can call. The browser app uses its own origin's /chain/rpc instead (the same server,
 * however the user reached it).
 */
export async function recordChainRpcUrl(db: Database, serverUrl: string): Promise<string> {
  const rpcUrl = `${serverUrl}/chain/rpc`
  await db.query(
    'update public.blockchain_configs set ' +
      'testnet_rpc_url = case when testnet then $1 else testnet_rpc_url end, ' +
      'mainnet_rpc_url = case when testnet then mainnet_rpc_url else $1 end where embedded',
    [rpcUrl],
  )
  return rpcUrl
}
