// The edge functions hosted Supabase runs from supabase/functions/<name>/index.ts, with what the
// Deno check (check.ts) needs to start each one and what it must answer. functions.test.ts holds
// this list to the folder, supabase/config.toml, the local backend's registry, the secrets each
// index.ts reads and docs/backend.md: a new function cannot be left out of the check.

/** What hosted Supabase gives every function (docs/backend.md, "Secrets and settings"). */
export const HOSTED_ENV = ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'] as const

export interface EdgeFunctionSpec {
  /** config.toml's verify_jwt: whether the gateway refuses a request without a valid JWT before the function runs. */
  verifyJwt: boolean
  /** The project secrets the function reads besides HOSTED_ENV (`supabase secrets set NAME=…`). */
  secrets: readonly string[]
  /**
   * A request without a user token and the function's own answer to it: its handler's words
   * (`error`), or for a public answer (`error` null) the JSON field it must carry and its caching.
   */
  smoke:
    | { method: 'GET' | 'POST'; status: number; error: string }
    | { method: 'GET'; status: 200; error: null; field: string; cacheControl?: string }
}

const SIGN_IN_REQUIRED = 'Sign in first: a user access token is required'
const signedInPost = { method: 'POST', status: 401, error: SIGN_IN_REQUIRED } as const

export const EDGE_FUNCTIONS_ON_DENO: Readonly<Record<string, EdgeFunctionSpec>> = {
  'init-user-tokens': { verifyJwt: true, secrets: [], smoke: signedInPost },
  'ai-test-connection': { verifyJwt: true, secrets: ['AI_PROVIDER_ALLOWED_HOSTS'], smoke: signedInPost },
  'ai-text': { verifyJwt: true, secrets: ['AI_PROVIDER_ALLOWED_HOSTS'], smoke: signedInPost },
  'wallet-verify': { verifyJwt: true, secrets: ['SITE_URL', 'WALLET_LINK_RATE_LIMIT', 'CUSTODIAL_WALLET_KEY'], smoke: signedInPost },
  // GET (which chains can mint) is public; POST checks the user itself.
  mint: { verifyJwt: false, secrets: ['MINTER_PRIVATE_KEY', 'NFT_METADATA_BASE'], smoke: signedInPost },
  // A token's tokenURI: wallets and marketplaces fetch it without any key.
  'nft-metadata': { verifyJwt: false, secrets: [], smoke: { method: 'GET', status: 400, error: 'id: a mint request id' } },
  // Reads the caller's uploaded audio with the service role: signed-in users only.
  'measure-audio': { verifyJwt: true, secrets: [], smoke: signedInPost },
  // The server's time for "Play together" (anyone, signed out included: viewers join too).
  'server-clock': {
    verifyJwt: false,
    secrets: [],
    smoke: { method: 'GET', status: 200, error: null, field: 'now', cacheControl: 'no-store' },
  },
  'chain-transaction': {
    verifyJwt: false,
    secrets: ['MINTER_PRIVATE_KEY'],
    smoke: { method: 'GET', status: 400, error: 'hash: a 0x-prefixed 32-byte transaction hash' },
  },
}
