// nft-metadata: the ERC-721 metadata JSON a CUBE token's tokenURI points at
// (GET /functions/v1/nft-metadata?id=<mint request id>). Public, as the chain itself is.
import { corsHeaders, json, preflight, type EdgeHandler } from '../_shared/http.ts'
import type { ServiceClient } from '../_shared/service-client.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function nftMetadataFunction(deps: { service: ServiceClient }): EdgeHandler {
  return async (req) => {
    if (req.method === 'OPTIONS') return preflight()
    if (req.method !== 'GET') return json({ error: 'Method not allowed: use GET' }, 405)
    const id = new URL(req.url).searchParams.get('id') ?? ''
    if (!UUID.test(id)) return json({ error: 'id: a mint request id' }, 400)
    const { data, error } = await deps.service.rpc('mint_metadata', { p_request: id })
    if (error) return json({ error: error.message }, 400)
    if (!data) return json({ error: 'No such token' }, 404)
    return new Response(JSON.stringify(data), {
      status: 200,
      headers: { ...corsHeaders, 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=60' },
    })
  }
}
