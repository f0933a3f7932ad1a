// The embedded chain's JSON-RPC, served at /chain/rpc so a user's own wallet can add the network
// and see their NFT, and any tool can call ownerOf / tokenURI / royaltyInfo. Only reads pass:
// the in-process EVM signs eth_sendTransaction for its twenty publicly known development accounts
// and would mine anyone's signed transaction, so a write from outside could spend the minter's
// chain or fill it; the server mints through its own provider, never through this route.
import { createRateLimiter, type RateLimit } from '../auth/rate-limit.ts'
import { clientAddress } from '../core/caller.ts'
import { readBody } from '../core/http-body.ts'
import { sendJson } from '../core/errors.ts'
import type { ApiRequest, Service } from '../core/router.ts'
import { PUBLIC_CALL_GAS_CAP, PublicCallRefused, SIMULATIONS } from './public-calls.ts'

/** The methods a wallet or an explorer needs to read the chain; everything else is refused. */
export const READ_METHODS: ReadonlySet<string> = new Set([
  'web3_clientVersion',
  'net_version',
  'net_listening',
  'eth_chainId',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_call',
  'eth_estimateGas',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_syncing',
])

/** What writing methods are answered with (EIP-1474: -32003 "transaction rejected"). */
export const WRITE_REFUSED = -32003
/** JSON-RPC 2.0's own codes. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600
const METHOD_NOT_FOUND = -32601
/** EIP-1474's "limit exceeded". */
const LIMIT_EXCEEDED = -32005

/** Requests per client address per minute (LOCAL_CHAIN_RPC_RATE_LIMIT); a batch counts each call. */
export const DEFAULT_CHAIN_RPC_RATE_LIMIT: RateLimit = { max: 600, seconds: 60 }
/** Calls per batch: a wallet sends a handful; more is someone loading the chain. */
export const MAX_BATCH = 50

const WRITE_METHODS = /^(eth_send|eth_sign|personal_|eth_submit|wallet_|hardhat_|evm_|debug_|miner_|admin_|txpool_|anvil_)/

export interface ChainRpcOptions {
  /** Sends one call to the chain (the embedded chain's provider); undefined while the chain is off. */
  send: ((method: string, params: unknown[]) => Promise<unknown>) | undefined
  rateLimit?: RateLimit
}

type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string } }

const fail = (id: unknown, code: number, message: string): RpcAnswer => ({ jsonrpc: '2.0', id, error: { code, message } })

export function chainRpcService({ send, rateLimit = DEFAULT_CHAIN_RPC_RATE_LIMIT }: ChainRpcOptions): Service {
  const limiter = createRateLimiter(rateLimit)

  const answer = async (send: NonNullable<ChainRpcOptions['send']>, call: unknown, address: string): Promise<RpcAnswer> => {
    if (!call || typeof call !== 'object' || Array.isArray(call)) return fail(null, INVALID_REQUEST, 'Invalid request')
    const { id = null, method, params = [], jsonrpc } = call as { id?: unknown; method?: unknown; params?: unknown; jsonrpc?: unknown }
    if (jsonrpc !== '2.0' || typeof method !== 'string' || !Array.isArray(params)) return fail(id, INVALID_REQUEST, 'Invalid request')
    if (!limiter.take(address)) return fail(id, LIMIT_EXCEEDED, 'Request rate limit reached: try again in a minute')
    if (!READ_METHODS.has(method)) {
      return WRITE_METHODS.test(method)
        ? fail(
            id,
            WRITE_REFUSED,
            `${method} is refused: this chain accepts transactions from the CUBE Music server only (it reads for anyone)`,
          )
        : fail(id, METHOD_NOT_FOUND, `The method ${method} does not exist or is not available`)
    }
    try {
      return { jsonrpc: '2.0', id, result: await send(method, params) }
    } catch (error) {
      // A call that reverts (ownerOf of a token nobody minted) is an answer, not a server fault.
      if (error instanceof PublicCallRefused) return fail(id, error.code, error.message)
      const e = error as {
        code?: unknown
        message?: string
        error?: { code?: number; message?: string }
        info?: { error?: { code?: number; message?: string } }
      }
      const inner = e.error ?? e.info?.error ?? (typeof e.code === 'number' ? { code: e.code, message: e.message } : undefined)
      const message = inner?.message ?? 'The chain could not answer'
      return fail(
        id,
        typeof inner?.code === 'number' ? inner.code : -32603,
        /out of gas/i.test(message) && SIMULATIONS.has(method)
          ? `${message} (public calls are capped at ${PUBLIC_CALL_GAS_CAP} gas)`
          : message,
      )
    }
  }

  return {
    prefixes: ['chain/rpc'],
    async handle({ req, res }: ApiRequest) {
      if (req.method === 'GET') {
        sendJson(res, 200, { jsonrpc: 'POST JSON-RPC 2.0 here', read_methods: [...READ_METHODS] })
        return
      }
      if (req.method !== 'POST') {
        sendJson(res, 405, fail(null, INVALID_REQUEST, 'Use POST'), { Allow: 'GET, POST' })
        return
      }
      if (!send) {
        sendJson(res, 503, fail(null, -32603, 'This server runs without the embedded chain (LOCAL_CHAIN=off)'))
        return
      }
      const call = send
      const raw = (await readBody(req)).toString('utf8')
      let body: unknown
      try {
        body = JSON.parse(raw)
      } catch {
        sendJson(res, 200, fail(null, PARSE_ERROR, 'Parse error: the body is not JSON'))
        return
      }
      const address = clientAddress(req)
      if (Array.isArray(body)) {
        if (body.length === 0) return sendJson(res, 200, fail(null, INVALID_REQUEST, 'Invalid request: empty batch'))
        if (body.length > MAX_BATCH) return sendJson(res, 200, fail(null, LIMIT_EXCEEDED, `At most ${MAX_BATCH} calls per batch`))
        const answers: RpcAnswer[] = []
        // In order, one at a time: the chain answers one call at a time anyway.
        for (const one of body) answers.push(await answer(call, one, address))
        sendJson(res, 200, answers)
        return
      }
      sendJson(res, 200, await answer(call, body, address))
    },
  }
}
