// The chains the server can mint on, as the edge functions see them: no npm imports here (the
// ethers code is in mint/evm-minter.ts, wired by each runtime).

/** A row of public.blockchain_configs (the columns the server reads). */
export interface BlockchainConfig {
  /** The chain's key: ethereum, polygon, … */
  name: string
  display_name: string
  native_token: string
  testnet: boolean
  mainnet_rpc_url: string | null
  testnet_rpc_url: string | null
  chain_id: number | null
  explorer_url: string | null
  contract_address: string | null
  /** Backed by the local backend's in-process chain (never on a hosted project). */
  embedded: boolean
}

/** The JSON-RPC URL of the network the chain mints on (testnet or mainnet), if any. */
export const rpcUrlOf = (config: Pick<BlockchainConfig, 'testnet' | 'mainnet_rpc_url' | 'testnet_rpc_url'>): string | null =>
  (config.testnet ? config.testnet_rpc_url : config.mainnet_rpc_url) ?? null

export interface MintOnChain {
  to: string
  tokenUri: string
  royaltyReceiver: string
  royaltyBps: number
}

/** One chain the server holds a minter key for. */
export interface Minter {
  contractAddress: string
  /** Sends the mint transaction and waits for its receipt; throws when it fails or reverts. */
  mint(args: MintOnChain): Promise<{ transactionHash: string; tokenId: string }>
  /** Reads a transaction back from the chain (the in-app transaction page). */
  readTransaction(hash: string): Promise<ChainTransaction | null>
}

export interface ChainTransaction {
  hash: string
  status: 'success' | 'reverted'
  blockNumber: number
  from: string
  to: string | null
  gasUsed: string
  tokenId: string | null
  owner: string | null
  tokenUri: string | null
  royalty: { receiver: string; amount: string } | null
}

/** The minter for a chain, or undefined when the server has no provider for it. */
export type MinterFor = (config: BlockchainConfig) => Minter | undefined
