// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts.
// A hosted deployment sets, on the blockchain_configs rows it mints on, testnet_rpc_url (or
// mainnet_rpc_url with testnet = false), chain_id and contract_address, and the secret
// MINTER_PRIVATE_KEY (the contract owner): see docs/backend.md.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { hostedMinters } from '../_shared/hosted-minters.deno.ts'
import { configuredOrigin } from '../_shared/site.ts'
import { mint } from './handler.ts'

const url = Deno.env.get('SUPABASE_URL')!
const noSession = { persistSession: false, autoRefreshToken: false }
Deno.serve(
  mint({
    // The project's own API URL (or NFT_METADATA_BASE): the tokenURI never takes a request's host.
    site: { apiBase: () => configuredOrigin('NFT_METADATA_BASE or SUPABASE_URL', Deno.env.get('NFT_METADATA_BASE') ?? url) },
    clientFor: (token) =>
      createClient(url, Deno.env.get('SUPABASE_ANON_KEY')!, { global: { headers: { Authorization: `Bearer ${token}` } }, auth: noSession }),
    service: createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: noSession }),
    minterFor: hostedMinters(),
  }),
)
