// chain-transaction: reads a mint transaction back from a chain the server has a provider for
// (GET ?chain=ethereum&hash=0x…): the receipt, and ownerOf / tokenURI / royaltyInfo of the token it
// minted. The in-app transaction page of the embedded chain, which has no public explorer.
import type { BlockchainConfig, MinterFor } from '../_shared/chain.ts'
import { json, preflight, type EdgeHandler } from '../_shared/http.ts'
import type { ServiceClient } from '../_shared/service-client.ts'
import { providerMissing } from '../mint/handler.ts'

export function chainTransaction(deps: { service: ServiceClient; minterFor: MinterFor }): EdgeHandler {
  return async (req) => {
    if (req.method === 'OPTIONS') return preflight()
    if (req.method !== 'GET') return json({ error: 'Method not allowed: use GET' }, 405)
    const params = new URL(req.url).searchParams
    const chain = params.get('chain') ?? ''
    const hash = params.get('hash') ?? ''
    if (!/^0x[0-9a-f]{64}$/.test(hash)) return json({ error: 'hash: a 0x-prefixed 32-byte transaction hash' }, 400)
    const ctx = await deps.service.rpc('mint_context', { p_user: null, p_blockchain: chain })
    const config = (ctx.data as { config: BlockchainConfig | null } | null)?.config
    if (!config) return json({ error: `Unknown blockchain: ${chain}` }, 400)
    const minter = deps.minterFor(config)
    if (!minter) return json({ error: providerMissing(chain) }, 400)
    try {
      const tx = await minter.readTransaction(hash)
      return tx ? json(tx) : json({ error: 'No such transaction on this chain' }, 404)
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 502)
    }
  }
}
