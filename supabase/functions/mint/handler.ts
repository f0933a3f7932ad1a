// mint: the server side of minting an NFT, in this order:
//   1. the caller is a signed-in user; the fields are valid; the chain has a provider (otherwise
//      'Provider for {chain} not initialized', before anything is burned);
//   2. public.mint_begin (service role): 100 CUBE burned (ledger 'mint') and the mint_requests
//      row inserted in one transaction; the client's per-click key makes repeated clicks one mint;
//   3. the ERC-721 token minted on chain with the server's minter key; on the receipt,
//      public.mint_complete: status 'completed' + transaction hash + token id + the nfts row;
//      any failure: public.mint_fail: status 'failed' and the 100 CUBE refunded ('mint_refund').
// Answers 200 { request, balance }; 400 invalid input / no provider / insufficient balance;
// 401 not signed in; 502 the chain failed (refunded).
import type { BlockchainConfig, MinterFor } from '../_shared/chain.ts'
import { json, type EdgeHandler } from '../_shared/http.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { ServiceClient } from '../_shared/service-client.ts'
import type { Site } from '../_shared/site.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export const MISSING_INFORMATION = 'Please provide a name, description, and image URL.'
export const INSUFFICIENT_BALANCE = 'You need at least 100 CUBE to mint an NFT.'
export const providerMissing = (chain: string) => `Provider for ${chain} not initialized`

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const MAX_IMAGE_CHARS = 700_000

/** http(s) URLs, or an image the user picked on their device (a data:image/… URL); nothing else. */
export function isSafeImageUrl(value: string): boolean {
  if (/^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(value)) return value.length <= MAX_IMAGE_CHARS
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.length <= 2048
  } catch {
    return false
  }
}

export interface MintBody {
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

type Parsed = { ok: true; body: MintBody } | { ok: false; error: string }

export function parseMintBody(raw: unknown): Parsed {
  const b = (raw ?? {}) as Record<string, unknown>
  const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string).trim() : '')
  const name = str('name')
  const description = str('description')
  const image = str('image')
  if (!name || !description || !image) return { ok: false, error: MISSING_INFORMATION }
  if (name.length > 100 || description.length > 2000)
    return { ok: false, error: 'The name is at most 100 characters and the description at most 2000' }
  if (!isSafeImageUrl(image)) return { ok: false, error: 'The image must be an http(s) URL or an image from your device' }
  const animation = str('animation_url')
  if (animation && !isSafeImageUrl(animation) && !/^https?:\/\//.test(animation))
    return { ok: false, error: 'The track audio must be an http(s) URL' }
  const percent = typeof b.royalties === 'number' ? b.royalties : 5
  if (!Number.isFinite(percent) || percent < 0 || percent > 50) return { ok: false, error: 'Royalties must be between 0 and 50 %' }
  // Whole basis points: what the contract stores (ERC-2981) and what mint_requests.royalties holds.
  const royalties = Math.round(percent * 100) / 100
  const recipient = str('recipient')
  if (recipient && !ADDRESS.test(recipient))
    return { ok: false, error: 'The recipient must be a valid address for this chain (0x and 40 hex digits)' }
  const clientKey = str('client_key')
  if (!/^[A-Za-z0-9_-]{8,100}$/.test(clientKey)) return { ok: false, error: 'client_key: 8 to 100 letters, digits, - or _' }
  const collection = str('collection')
  if (collection.length > 100) return { ok: false, error: 'The collection name is at most 100 characters' }
  return {
    ok: true,
    body: {
      blockchain: str('blockchain'),
      name,
      description,
      image,
      animation_url: animation || null,
      song_id: str('song_id') || null,
      recipient: recipient || null,
      royalties,
      collection: collection || null,
      client_key: clientKey,
    },
  }
}

/** ERC-721 metadata JSON as stored and served at the token's tokenURI. */
export function nftMetadata(body: MintBody, chain: BlockchainConfig) {
  return {
    name: body.name,
    description: body.description,
    image: body.image,
    ...(body.animation_url ? { animation_url: body.animation_url } : {}),
    attributes: [
      { trait_type: 'Created with', value: 'CUBE Music' },
      { trait_type: 'Blockchain', value: chain.display_name },
      ...(body.collection ? [{ trait_type: 'Collection', value: body.collection }] : []),
      ...(body.song_id ? [{ trait_type: 'Track', value: body.song_id }] : []),
    ],
  }
}

export interface MintDeps {
  clientFor: UserClientFactory
  service: ServiceClient
  minterFor: MinterFor
  /**
   * Where the tokenURI points (this project's /functions/v1/nft-metadata): configuration only. A
   * host taken from the request (Host, X-Forwarded-Host) would let a caller point an official
   * token at a server of their own, for ever, on chain.
   */
  site: Pick<Site, 'apiBase'>
}

/** GET: which enabled chains this server can mint on, and why not for the others (anyone may ask). */
async function mintableChains(deps: MintDeps): Promise<Response> {
  const { data, error } = await deps.service.rpc('enabled_blockchains')
  if (error) return json({ error: error.message }, 500)
  const chains = ((data ?? []) as BlockchainConfig[]).map((config) =>
    deps.minterFor(config)
      ? { name: config.name, mintable: true }
      : { name: config.name, mintable: false, reason: providerMissing(config.name) },
  )
  return json({ chains })
}

export function mint(deps: MintDeps): EdgeHandler {
  return async (req) => {
    if (req.method === 'GET') return mintableChains(deps)
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    const { userId } = caller

    let raw: unknown
    try {
      raw = await req.json()
    } catch {
      return json({ error: 'Send the mint as JSON' }, 400)
    }
    const parsed = parseMintBody(raw)
    if (!parsed.ok) return json({ error: parsed.error }, 400)
    const body = parsed.body

    const ctx = await deps.service.rpc('mint_context', { p_user: userId, p_blockchain: body.blockchain })
    if (ctx.error) return json({ error: ctx.error.message }, 400)
    const { config, linked_address: linked } = ctx.data as { config: BlockchainConfig | null; linked_address: string | null }
    if (!config) return json({ error: `Unknown blockchain: ${body.blockchain || '(none)'}` }, 400)
    const minter = deps.minterFor(config)
    if (!minter) return json({ error: providerMissing(config.name) }, 400)
    const recipient = body.recipient ?? linked
    if (!recipient) return json({ error: 'Connect a wallet or enter a recipient address' }, 400)

    const begun = await deps.service.rpc('mint_begin', {
      p_user: userId,
      p_client_key: body.client_key,
      p_blockchain: config.name,
      p_metadata: nftMetadata(body, config),
      p_recipient: recipient,
      p_royalties: body.royalties,
      p_collection: body.collection,
    })
    if (begun.error) {
      return begun.error.message === 'insufficient_balance'
        ? json({ error: INSUFFICIENT_BALANCE, code: 'insufficient_balance' }, 400)
        : json({ error: begun.error.message }, 400)
    }
    const { request, created, balance } = begun.data as { request: { id: string; status: string }; created: boolean; balance: number }
    // A repeated click with the same key: the first one is (or was) doing the mint.
    if (!created) return json({ request, balance, duplicate: true })

    try {
      const minted = await minter.mint({
        to: recipient,
        tokenUri: `${deps.site.apiBase()}/functions/v1/nft-metadata?id=${request.id}`,
        royaltyReceiver: recipient,
        royaltyBps: Math.round(body.royalties * 100),
      })
      const done = await deps.service.rpc('mint_complete', {
        p_request: request.id,
        p_tx_hash: minted.transactionHash,
        p_token_id: minted.tokenId,
        p_contract: minter.contractAddress,
      })
      if (done.error) throw new Error(done.error.message)
      return json({ request: done.data, balance })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const failed = await deps.service.rpc('mint_fail', { p_request: request.id, p_error: message })
      return json({ error: message, request: failed.data, refunded: true }, 502)
    }
  }
}
