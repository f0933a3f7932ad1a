// Where the public's eth_call and eth_estimateGas run: not on the chain the minter signs on. The
// in-process EVM answers one request at a time, so one anonymous call of an endless loop held every
// mint behind it for seconds. Public simulations run on a fork of the chain instead (a second EVM
// with its own queue, reading the chain's state through a loopback port that answers only reads),
// capped in gas and in wall-clock time, one at a time, with a short queue: the minter never waits for
// them, and a caller that floods them gets a clear refusal instead of a slot.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createProvider } from 'hardhat/internal/core/providers/construction.js'
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution.js'

/**
 * Gas a public call may burn. A wallet's calls and estimates on this chain need well under 1 M (a
 * mint is about 150 k, ownerOf 25 k); this EVM runs the cheapest endless loop at roughly 1–4 M gas
 * a second, so the cap bounds how long one call holds the fork (the usual 30 M block limit would
 * hold it for 10–30 s).
 */
export const PUBLIC_CALL_GAS_CAP = 3_000_000n
/** How long a public caller waits for an answer (queued or running) before it is told so. */
export const PUBLIC_CALL_TIMEOUT_MS = 5_000
/** Public calls waiting for the fork at once; more are refused at once. */
export const PUBLIC_CALL_QUEUE = 4

/** The public simulation methods this module runs. */
export const SIMULATIONS: ReadonlySet<string> = new Set(['eth_call', 'eth_estimateGas'])

/** The reads a fork needs from the chain it forks (all of them public on /chain/rpc anyway). */
const FORK_READS = new Set([
  'eth_chainId',
  'net_version',
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getLogs',
])

/** EIP-1474's "limit exceeded" and "resource unavailable". */
const LIMIT_EXCEEDED = -32005
const RESOURCE_UNAVAILABLE = -32002

/** A JSON-RPC error the public route passes on as it is (code and message). */
export class PublicCallRefused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

type Raw = { request(args: { method: string; params?: unknown[] }): Promise<unknown> }

export interface PublicCalls {
  /** Runs a public eth_call / eth_estimateGas on the fork, capped; rejects with PublicCallRefused. */
  simulate(method: string, params: unknown[]): Promise<unknown>
  close(): Promise<void>
}

const hex = (n: bigint) => `0x${n.toString(16)}`

/** The call object with its gas capped (a missing gas becomes the cap: estimateGas searches up to it). */
function capped(params: unknown[]): unknown[] {
  const [tx, ...rest] = params
  if (!tx || typeof tx !== 'object' || Array.isArray(tx))
    throw new PublicCallRefused(-32602, 'Invalid params: the first parameter is the call object')
  const given = (tx as { gas?: unknown }).gas
  let gas = PUBLIC_CALL_GAS_CAP
  if (typeof given === 'string' && /^0x[0-9a-f]+$/i.test(given) && BigInt(given) < gas) gas = BigInt(given)
  // The fork's newest block is the chain's newest state; older blocks are not simulated here.
  const tag = rest[0]
  if (tag !== undefined && tag !== 'latest' && tag !== 'pending' && tag !== 'safe' && tag !== 'finalized') {
    throw new PublicCallRefused(-32602, 'Public eth_call and eth_estimateGas run on the latest block only: pass "latest" or no block')
  }
  return [{ ...(tx as object), gas: hex(gas) }, 'latest', ...rest.slice(1)]
}

/**
 * The fork of `chain` for public simulations, started on the first call. `chain` is the minter's
 * raw provider: the fork only reads from it, through a loopback port with a random path.
 */
export function publicCalls(chain: Raw, chainId: number): PublicCalls {
  const secretPath = `/${randomBytes(16).toString('hex')}`
  let loopback: Server | undefined
  let fork: Promise<{ raw: Raw; url: string }> | undefined
  let forkedAt = -1
  let tail: Promise<unknown> = Promise.resolve()
  let waiting = 0
  let cacheDir: string | undefined

  const serveReads = async (): Promise<string> => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        void (async () => {
          if (req.url !== secretPath || req.method !== 'POST') return res.writeHead(404).end()
          const one = async (call: { id?: unknown; method?: string; params?: unknown[] }) => {
            if (!call.method || !FORK_READS.has(call.method))
              return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Not available' } }
            try {
              return { jsonrpc: '2.0', id: call.id, result: await chain.request({ method: call.method, params: call.params ?? [] }) }
            } catch (error) {
              return { jsonrpc: '2.0', id: call.id, error: { code: -32603, message: (error as Error).message } }
            }
          }
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
            const out = Array.isArray(body) ? await Promise.all(body.map(one)) : await one(body as never)
            res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out))
          } catch {
            res.writeHead(400).end()
          }
        })()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    // The fork's port must not keep a finished process (a test, a script) alive.
    server.unref()
    loopback = server
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}${secretPath}`
  }

  const head = async () => Number(BigInt((await chain.request({ method: 'eth_blockNumber', params: [] })) as string))

  /** The fork, moved to the chain's newest block when the chain has moved on. */
  const fresh = async (): Promise<Raw> => {
    const now = await head()
    if (!fork) {
      fork = (async () => {
        const url = await serveReads()
        const config = resolveConfig(fileURLToPath(import.meta.url) /* no config file */, {
          networks: { hardhat: { chainId, loggingEnabled: false, forking: { url, blockNumber: now, enabled: true } } },
        })
        // The fork caches what it read on disk; those reads describe this run's chain only, so the
        // cache lives in a temporary folder removed on close (never the working directory).
        cacheDir = await mkdtemp(join(tmpdir(), 'cube-chain-fork-'))
        return { raw: (await createProvider({ ...config, paths: { ...config.paths, cache: cacheDir } }, 'hardhat')) as Raw, url }
      })()
      fork.catch(() => (fork = undefined))
      const { raw } = await fork
      // Blocks up to the fork block count as history, for which the fork knows no hardfork; the
      // first block of its own holds the chain's newest state.
      await raw.request({ method: 'evm_mine', params: [] })
      forkedAt = now
      return raw
    }
    const { raw, url } = await fork
    if (now !== forkedAt) {
      await raw.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: url, blockNumber: now } }] })
      await raw.request({ method: 'evm_mine', params: [] })
      forkedAt = now
    }
    return raw
  }

  return {
    simulate(method, params) {
      if (!SIMULATIONS.has(method)) return Promise.reject(new PublicCallRefused(-32601, `${method} is not a simulation`))
      let args: unknown[]
      try {
        args = capped(params)
      } catch (error) {
        return Promise.reject(error as Error)
      }
      if (waiting >= PUBLIC_CALL_QUEUE) {
        return Promise.reject(
          new PublicCallRefused(
            RESOURCE_UNAVAILABLE,
            `The chain is busy with other eth_call/eth_estimateGas requests: try again in a few seconds`,
          ),
        )
      }
      waiting++
      const run = tail.then(async () => (await fresh()).request({ method, params: args }))
      // The next call waits for this one to finish on the fork, even when its caller stopped waiting.
      tail = run.catch(() => undefined)
      void tail.then(() => waiting--)
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new PublicCallRefused(
                LIMIT_EXCEEDED,
                `${method} took longer than ${PUBLIC_CALL_TIMEOUT_MS / 1000} s: public calls are capped at ` +
                  `${PUBLIC_CALL_GAS_CAP / 1_000_000n} M gas and ${PUBLIC_CALL_TIMEOUT_MS / 1000} s`,
              ),
            ),
          PUBLIC_CALL_TIMEOUT_MS,
        )
      })
      return Promise.race([run, timeout]).finally(() => clearTimeout(timer))
    },
    async close() {
      const server = loopback
      loopback = undefined
      // The fork keeps its keep-alive connections to the loopback port open: close() alone would
      // wait for them for ever.
      if (server) {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
      if (cacheDir) await rm(cacheDir, { recursive: true, force: true })
    },
  }
}
