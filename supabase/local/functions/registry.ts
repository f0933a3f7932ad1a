import type { AiConfigSource } from '../../functions/_shared/ai-provider.ts'
import type { EdgeHandler } from '../../functions/_shared/http.ts'
import { aiTestConnection } from '../../functions/ai-test-connection/handler.ts'
import { aiText } from '../../functions/ai-text/handler.ts'
import type { MinterFor } from '../../functions/_shared/chain.ts'
import type { CustodialKeys } from '../../functions/_shared/custodial-keys.ts'
import type { GuardedFetch } from '../../functions/_shared/outbound-guard.ts'
import type { Site } from '../../functions/_shared/site.ts'
import type { ServiceClient } from '../../functions/_shared/service-client.ts'
import type { UserClientFactory } from '../../functions/_shared/user-client.ts'
import { chainTransaction } from '../../functions/chain-transaction/handler.ts'
import { initUserTokens } from '../../functions/init-user-tokens/handler.ts'
import { measureAudio, type StoredAudio } from '../../functions/measure-audio/handler.ts'
import { audioDuration } from './audio-duration.ts'
import { mint } from '../../functions/mint/handler.ts'
import { nftMetadataFunction } from '../../functions/nft-metadata/handler.ts'
import { serverClock } from '../../functions/server-clock/handler.ts'
import { walletVerify } from '../../functions/wallet-verify/handler.ts'
import { verifySiwe } from '../../functions/wallet-verify/siwe-verifier.ts'
import { randomEthereumKey } from '../../functions/wallet-verify/random-key.ts'

/** What the local backend injects into an edge function (on Deno, index.ts injects supabase-js). */
export interface EdgeFunctionDeps {
  clientFor: UserClientFactory
  /** The admin's AI provider settings and keys, read as the service role. */
  aiConfig: AiConfigSource
  /** Outbound HTTP (the provider calls), behind the outbound policy (AI_PROVIDER_ALLOWED_HOSTS). */
  fetch: GuardedFetch
  /** The server's own rights (service_role), for functions that act after their own checks. */
  service: ServiceClient
  /** The chains the server holds a minter key for (the embedded chain when it runs). */
  minterFor: MinterFor
  /** Where this deployment is served, from configuration (SIWE's domain, the tokenURI's base). */
  site: Site
  /** Wallet links per client address per hour (wallet-verify; hosted: the WALLET_LINK_RATE_LIMIT secret). */
  walletLinkRateLimit: number
  /** A Storage object's bytes as the service role reads them (measure-audio). */
  readObject(bucket: string, path: string): Promise<StoredAudio | null>
  /** Seals custodial private keys (wallet-verify; hosted: the CUSTODIAL_WALLET_KEY secret). */
  custodialKeys: CustodialKeys
}

/**
 * The edge functions the local backend serves at /functions/v1/<name> (and /api/<name>): the
 * same handler modules hosted Supabase runs from supabase/functions/<name>/index.ts. A new
 * function is one handler.ts there and one line here.
 */
export const EDGE_FUNCTIONS: Readonly<Record<string, (deps: EdgeFunctionDeps) => EdgeHandler>> = {
  'init-user-tokens': (deps) => initUserTokens(deps),
  'ai-test-connection': (deps) => aiTestConnection(deps),
  'ai-text': (deps) => aiText(deps),
  'wallet-verify': (deps) =>
    walletVerify({
      ...deps,
      verify: verifySiwe,
      newKey: randomEthereumKey,
      linksPerHour: deps.walletLinkRateLimit,
      keys: deps.custodialKeys,
    }),
  mint: (deps) => mint(deps),
  'nft-metadata': (deps) => nftMetadataFunction(deps),
  'chain-transaction': (deps) => chainTransaction(deps),
  'measure-audio': (deps) => measureAudio({ ...deps, durationOf: audioDuration }),
  'server-clock': () => serverClock(),
}
