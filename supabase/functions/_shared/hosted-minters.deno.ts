// Hosted (Deno) minters shared by the mint and chain-transaction edge functions: a chain is
// mintable when its row's RPC URL for the network in use (testnet_rpc_url or mainnet_rpc_url) is
// https and it names a chain_id and a contract_address; the MINTER_PRIVATE_KEY secret (the
// contract's owner) signs. Deno-only (npm: imports, Deno globals): excluded from the Node
// typecheck and lint like index.ts.
import { JsonRpcProvider, Wallet } from 'npm:ethers@6.17.0'
import artifact from '../../../contracts/CubeMusicNFT.json' with { type: 'json' }
import { rpcUrlOf, type Minter, type MinterFor } from './chain.ts'
import { evmMinter } from '../mint/evm-minter.ts'

export function hostedMinters(): MinterFor {
  const minters = new Map<string, Minter>()
  return (config) => {
    const rpcUrl = rpcUrlOf(config)
    const key = Deno.env.get('MINTER_PRIVATE_KEY')
    if (!rpcUrl?.startsWith('https://') || !config.contract_address || !config.chain_id || !key) return undefined
    const id = `${rpcUrl}|${config.contract_address}`
    if (!minters.has(id)) {
      const signer = new Wallet(key, new JsonRpcProvider(rpcUrl, config.chain_id))
      minters.set(id, evmMinter(signer, config.contract_address, artifact.abi))
    }
    return minters.get(id)
  }
}
