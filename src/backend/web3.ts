import { supabase } from './client.ts'
import { functionError } from './function-error.ts'
import { jsonAs } from './rpc.ts'
import type { Tables } from './database.types.ts'

// The token side's server calls. The server decides every figure here: the client
// only asks, signs what the wallet signs, and shows what comes back.

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v ?? 0) || 0)

export async function issueWalletNonce(): Promise<string> {
  const { data, error } = await supabase().rpc('wallet_issue_nonce')
  if (error) throw error
  return String((data as { nonce: string }).nonce)
}

export interface LinkAnswer {
  address: string
  welcome: number
  balance: number
}

/** The server verifies the signed EIP-4361 message and links the address (and pays the welcome once). */
export async function verifyWallet(message: string, signature: string): Promise<LinkAnswer> {
  const { data, error } = await supabase().functions.invoke<LinkAnswer>('wallet-verify', { body: { message, signature } })
  if (error) throw await functionError(error)
  if (!data) throw new Error('wallet-verify answered nothing')
  return { address: data.address, welcome: num(data.welcome), balance: num(data.balance) }
}

/** Social login: the server links the account's own (custodial) address, made once, and pays the welcome once. */
export async function linkAccountWallet(): Promise<LinkAnswer> {
  const { data, error } = await supabase().functions.invoke<LinkAnswer>('wallet-verify', { body: { custodial: true } })
  if (error) throw await functionError(error)
  if (!data) throw new Error('wallet-verify answered nothing')
  return { address: data.address, welcome: num(data.welcome), balance: num(data.balance) }
}

export async function unlinkWallet(): Promise<void> {
  const { error } = await supabase().rpc('wallet_unlink')
  if (error) throw error
}

export interface LinkedWallet {
  address: string
  /** The account's own address, held by the server (Social login). */
  custodial: boolean
}

export async function fetchLinkedWallet(userId: string): Promise<LinkedWallet | null> {
  const { data, error } = await supabase().from('wallet_links').select('address, custodial').eq('user_id', userId).maybeSingle()
  if (error) throw error
  return data ? { address: data.address, custodial: data.custodial } : null
}

export async function fetchLinkedAddress(userId: string): Promise<string | null> {
  return (await fetchLinkedWallet(userId))?.address ?? null
}

export interface ClaimStatus {
  listenedSeconds: number
  claimable: number
  claimed: number
  hourProgress: number
}

export async function fetchClaimStatus(): Promise<ClaimStatus> {
  const { data, error } = await supabase().rpc('wallet_claim_status')
  if (error) throw error
  const d = (data ?? {}) as Record<string, unknown>
  return {
    listenedSeconds: num(d.listened_seconds),
    claimable: num(d.claimable),
    claimed: num(d.claimed),
    hourProgress: num(d.hour_progress),
  }
}

export async function claimRewards(): Promise<{ claimed: number; balance: number }> {
  const { data, error } = await supabase().rpc('wallet_claim')
  if (error) throw error
  const d = (data ?? {}) as Record<string, unknown>
  return { claimed: num(d.claimed), balance: num(d.balance) }
}

/** A row of blockchain_configs, with the reference's column names (name is the chain's key). */
export type BlockchainConfig = Pick<
  Tables<'blockchain_configs'>,
  | 'name'
  | 'display_name'
  | 'icon'
  | 'enabled'
  | 'testnet'
  | 'mainnet_rpc_url'
  | 'testnet_rpc_url'
  | 'explorer_url'
  | 'native_token'
  | 'chain_id'
  | 'contract_address'
  | 'embedded'
>

export async function fetchBlockchainConfigs(): Promise<BlockchainConfig[]> {
  const { data, error } = await supabase().from('blockchain_configs').select('*').order('sort')
  if (error) throw error
  return (data ?? []) as BlockchainConfig[]
}

export interface MintableChain {
  /** blockchain_configs.name */
  name: string
  mintable: boolean
  /** Why the server cannot mint there (its own words). */
  reason?: string
}

/** Which enabled chains the server can mint on (GET on the mint function). */
export async function fetchMintableChains(): Promise<MintableChain[]> {
  const { data, error } = await supabase().functions.invoke<{ chains: MintableChain[] }>('mint', { method: 'GET' })
  if (error) throw await functionError(error)
  return data?.chains ?? []
}

export interface NftMetadata {
  name: string
  description: string
  image: string
  animation_url?: string
  attributes?: { trait_type: string; value: string }[]
}

/** A minted NFT as the app reads it: the generated row's columns, with its metadata's shape. */
export type NftRow = Pick<
  Tables<'nfts'>,
  'id' | 'blockchain' | 'contract_address' | 'token_id' | 'transaction_id' | 'royalties' | 'minted_at'
> & {
  metadata: NftMetadata
}

export async function fetchNfts(userId: string): Promise<NftRow[]> {
  const { data, error } = await supabase()
    .from('nfts')
    .select('id, blockchain, contract_address, token_id, transaction_id, royalties, metadata, minted_at')
    .eq('owner_id', userId)
    .order('minted_at', { ascending: false })
  if (error) throw error
  return (data ?? []).map((row) => ({ ...row, metadata: jsonAs<NftRow['metadata']>(row.metadata) }))
}

/** A mint request: the generated row's columns; status and metadata narrowed to what their checks allow. */
export type MintRequestRow = Pick<
  Tables<'mint_requests'>,
  'id' | 'blockchain' | 'recipient' | 'royalties' | 'transaction_id' | 'token_id' | 'error' | 'created_at'
> & {
  status: 'pending' | 'completed' | 'failed'
  metadata: NftMetadata
}

export async function fetchMintRequests(limit = 10): Promise<MintRequestRow[]> {
  const { data, error } = await supabase()
    .from('mint_requests')
    .select('id, blockchain, status, metadata, recipient, royalties, transaction_id, token_id, error, created_at')
    .order('created_at', { ascending: false })
    .limit(limit)
  if (error) throw error
  // status is text with a check constraint (pending | completed | failed): the catalogue types it as text.
  return (data ?? []).map((row) => ({
    ...row,
    status: row.status as MintRequestRow['status'],
    metadata: jsonAs<MintRequestRow['metadata']>(row.metadata),
  }))
}

export interface MintInput {
  blockchain: string
  name: string
  description: string
  image: string
  animation_url?: string | null
  song_id?: string | null
  recipient?: string | null
  royalties: number
  collection?: string | null
  client_key: string
}

export async function mintNft(input: MintInput): Promise<{ request: MintRequestRow; balance: number }> {
  const { data, error } = await supabase().functions.invoke<{ request: MintRequestRow; balance: number }>('mint', { body: input })
  if (error) throw await functionError(error)
  if (!data) throw new Error('mint answered nothing')
  return data
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

export async function fetchChainTransaction(chain: string, hash: string): Promise<ChainTransaction> {
  const { data, error } = await supabase().functions.invoke<ChainTransaction>(
    `chain-transaction?chain=${encodeURIComponent(chain)}&hash=${encodeURIComponent(hash)}`,
    { method: 'GET' },
  )
  if (error) throw await functionError(error)
  if (!data) throw new Error('No such transaction')
  return data
}

export type LedgerRow = Pick<Tables<'token_ledger'>, 'amount' | 'reason' | 'reference' | 'created_at'>

export async function fetchLedgerSince(userId: string, sinceIso: string | null, limit = 500): Promise<LedgerRow[]> {
  let query = supabase().from('token_ledger').select('amount, reason, reference, created_at').eq('user_id', userId)
  if (sinceIso) query = query.gte('created_at', sinceIso)
  const { data, error } = await query.order('created_at', { ascending: false }).limit(limit)
  if (error) throw error
  return (data ?? []).map((r) => ({ ...r, amount: num(r.amount) }))
}
