// wallet-verify: proves that the caller owns an Ethereum address. The client got a single-use
// nonce from rpc('wallet_issue_nonce'), had the wallet sign an EIP-4361 message carrying it, and
// posts { message, signature }. Here the signature is verified (never trusted from the client),
// the message's domain and URI must be this deployment's configured app origin (never the request's
// Origin: a signature phished on another site names that site), and only then public.wallet_link() (service
// role) consumes the nonce, links the checksummed address and grants the wallet welcome once.
// Answers 200 { address, welcome, balance }; 400 bad message/signature/nonce; 401 not signed in;
// 409 the address belongs to another account.
// { custodial: true } instead ("Social login", no browser wallet): the account's own address, made
// by the server once (public.wallet_link_custodial keeps its key where no API role reads it).
// Links are rate-limited per client address per hour (`linksPerHour`; hosted: the
// WALLET_LINK_RATE_LIMIT secret, local: LOCAL_WALLET_LINK_RATE_LIMIT): each request that reaches
// the linking step takes one (public.client_rate_take, service role), whether it then links or is
// refused; beyond the limit the answer is 429 `over_request_rate_limit` in words.
import { clientAddress, json, type EdgeHandler } from '../_shared/http.ts'
import { signedInPost } from '../_shared/signed-in.ts'
import type { CustodialKeys } from '../_shared/custodial-keys.ts'
import type { ServiceClient } from '../_shared/service-client.ts'
import type { Site } from '../_shared/site.ts'
import type { UserClientFactory } from '../_shared/user-client.ts'

export type SiweCheck = { ok: true; address: string; nonce: string; chainId: number } | { ok: false; error: string }
/** `origins`: where the app is served; the message's domain and URI must name one of them. */
export type SiweVerifier = (input: { message: string; signature: string; origins: readonly string[] }) => Promise<SiweCheck>

export const WALLET_ERRORS: Readonly<Record<string, [number, string]>> = {
  invalid_nonce: [400, 'This sign-in request is unknown: ask for a new one'],
  nonce_used: [400, 'This sign-in request was already used: ask for a new one'],
  nonce_expired: [400, 'This sign-in request expired (5 minutes): ask for a new one'],
  address_taken: [409, 'This address is already linked to another CUBE account'],
}

/** A fresh Ethereum key pair (drawn by the runtime's ethers). */
export type NewKey = () => { address: string; privateKey: string }

/** Wallet links per client address per hour when the deployment configures none. */
export const DEFAULT_WALLET_LINKS_PER_HOUR = 10

export const linkRateLimited = (perHour: number): Response =>
  json(
    {
      error:
        `Too many wallet links from your network: at most ${perHour} an hour per address. ` +
        'Try again within the hour (the limit keeps the wallet welcome from being farmed).',
      code: 'over_request_rate_limit',
    },
    429,
  )

export function walletVerify(deps: {
  clientFor: UserClientFactory
  service: ServiceClient
  verify: SiweVerifier
  newKey: NewKey
  site: Pick<Site, 'appOrigins'>
  /** Wallet links per client address per hour. */
  linksPerHour: number
  /** Seals the custodial key before it is stored; undefined: the deployment has no key (Social login is off). */
  keys: CustodialKeys | undefined
}): EdgeHandler {
  /** Takes one link from the caller's address's hourly allowance; a Response when none is left. */
  const takeLink = async (req: Request): Promise<Response | undefined> => {
    const { data, error } = await deps.service.rpc('client_rate_take', {
      p_bucket: 'wallet_link',
      p_client: clientAddress(req) ?? 'unknown',
      p_limit: deps.linksPerHour,
      p_window_seconds: 3600,
    })
    if (error) return json({ error: error.message, code: error.code }, 500)
    return data === true ? undefined : linkRateLimited(deps.linksPerHour)
  }
  return async (req) => {
    const caller = await signedInPost(req, deps.clientFor)
    if (caller instanceof Response) return caller
    const { user, userId } = caller

    let body: { message?: unknown; signature?: unknown; custodial?: unknown }
    try {
      body = (await req.json()) as typeof body
    } catch {
      return json({ error: 'Send JSON { message, signature }' }, 400)
    }
    if (body.custodial === true) {
      const init = await user.rpc('init_user_tokens')
      if (init.error) return json({ error: init.error.message, code: init.error.code }, 400)
      const limited = await takeLink(req)
      if (limited) return limited
      if (!deps.keys)
        return json({ error: 'Social login is not set up on this server (no CUSTODIAL_WALLET_KEY secret)', code: 'custodial_off' }, 503)
      // A key is drawn every time; the database keeps the account's first and answers with it. It
      // reaches the database sealed only.
      const key = deps.newKey()
      const { data, error } = await deps.service.rpc('wallet_link_custodial', {
        p_user: userId,
        p_address: key.address,
        p_private_key: await deps.keys.seal(userId, key.privateKey),
      })
      if (error) return json({ error: error.message, code: error.message }, 400)
      return json(data)
    }
    if (
      typeof body.message !== 'string' ||
      typeof body.signature !== 'string' ||
      body.message.length > 4000 ||
      !/^0x[0-9a-fA-F]{130}$/.test(body.signature)
    ) {
      return json({ error: 'Send JSON { message, signature } with a 65-byte hex signature' }, 400)
    }
    const check = await deps.verify({ message: body.message, signature: body.signature, origins: deps.site.appOrigins() })
    if (!check.ok) return json({ error: check.error }, 400)

    // The wallet row must exist before the welcome can be added to it.
    const init = await user.rpc('init_user_tokens')
    if (init.error) return json({ error: init.error.message, code: init.error.code }, 400)
    const limited = await takeLink(req)
    if (limited) return limited
    const { data, error } = await deps.service.rpc('wallet_link', {
      p_user: userId,
      p_address: check.address,
      p_nonce: check.nonce,
      p_chain_id: check.chainId,
    })
    if (error) {
      const [status, message] = WALLET_ERRORS[error.message] ?? [400, error.message]
      return json({ error: message, code: error.message }, status)
    }
    return json(data)
  }
}
