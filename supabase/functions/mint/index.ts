// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts.
// A hosted deployment sets blockchain_configs.rpc_url of ethereum/polygon to testnet RPC URLs
// (and contract_address to its deployment) and the secret MINTER_PRIVATE_KEY (the contract owner).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { JsonRpcProvider, Wallet } from 'npm:ethers@6.17.0'
import artifact from '../../../contracts/CubeMusicNFT.json' with { type: 'json' }
import type { Minter } from '../_shared/chain.ts'
import { configuredOrigin } from '../_shared/site.ts'
import { evmMinter } from './evm-minter.ts'
import { mint } from './handler.ts'

const url = Deno.env.get('SUPABASE_URL')!
const noSession = { persistSession: false, autoRefreshToken: false }
const minters = new Map<string, Minter>()
Deno.serve(
  mint({
    // The project's own API URL (or NFT_METADATA_BASE): the tokenURI never takes a request's host.
    site: { apiBase: () => configuredOrigin('NFT_METADATA_BASE or SUPABASE_URL', Deno.env.get('NFT_METADATA_BASE') ?? url) },
    clientFor: (token) =>
      createClient(url, Deno.env.get('SUPABASE_ANON_KEY')!, { global: { headers: { Authorization: `Bearer ${token}` } }, auth: noSession }),
    service: createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: noSession }),
    minterFor: (config) => {
      if (!config.rpc_url?.startsWith('https://') || !config.contract_address || !config.chain_id) return undefined
      const key = `${config.rpc_url}|${config.contract_address}`
      if (!minters.has(key)) {
        const signer = new Wallet(Deno.env.get('MINTER_PRIVATE_KEY')!, new JsonRpcProvider(config.rpc_url, config.chain_id))
        minters.set(key, evmMinter(signer, config.contract_address, artifact.abi))
      }
      return minters.get(key)
    },
  }),
)
