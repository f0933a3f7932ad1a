import { Contract, JsonRpcProvider, Wallet, parseEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { NFT_ARTIFACT } from '../../supabase/local/chain/embedded-chain.ts'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MAX_BATCH, WRITE_REFUSED, chainRpcService, type ChainRpcOptions } from '../../supabase/local/chain/chain-rpc.ts'
import { startTestServer, type TestServer } from './support/local-backend.ts'

// A chain a wallet can reach: the embedded chain's JSON-RPC at /chain/rpc, for a
// user's own wallet and any tool. Reads answer as any Ethereum node's; writes that are not the
// server's own are refused, from a tool (ethers) and from raw HTTP as an outsider would send them.

/** Hardhat's first development account: its key is in every Hardhat tutorial, and the EVM funds it. */
const PUBLIC_DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const PUBLIC_DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

let server: TestServer
type Served = { url: string }
const rpcUrl = (s: Served) => `${s.url}/chain/rpc`
const call = async (s: Served, body: unknown) => {
  const res = await fetch(rpcUrl(s), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as Record<string, never> & { error?: { code: number; message: string } } }
}
const one = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params })

beforeAll(async () => {
  server = await startTestServer({ embeddedChain: true })
}, 60_000)
// Closing waits for the chain's worker to finish what a hostile caller left running (up to its
// wall-clock cap), which can outlast the default hook timeout on a loaded machine.
afterAll(async () => {
  await server?.close()
}, 60_000)

/** The route alone on an HTTP server of its own (no database): for the options a whole server takes from its environment. */
async function routeAlone(options: ChainRpcOptions, run: (served: Served) => Promise<void>) {
  const service = chainRpcService(options)
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    void service.handle({ req, res, url, prefix: 'chain/rpc', path: '/', rawPath: '/' })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  try {
    await run({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` })
  } finally {
    await new Promise((resolve) => http.close(resolve))
  }
}

describe('/chain/rpc reads', () => {
  it('a tool reads the NFT the server minted: chain id, ownerOf, tokenURI, royaltyInfo', async () => {
    const chain = server.chain!
    const owner = Wallet.createRandom().address
    // The server's own mint, through its in-process provider (what the mint function does).
    const minting = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, chain.minter)
    await (await minting.getFunction('mint')(owner, 'https://cube.example/nft/1.json', owner, 500)).wait()

    const provider = new JsonRpcProvider(rpcUrl(server), undefined, { staticNetwork: true, batchMaxCount: 1 })
    expect(Number((await provider.getNetwork()).chainId)).toBe(31337)
    const nft = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, provider)
    const tokenId = 1n
    expect(await nft.getFunction('ownerOf')(tokenId)).toBe(owner)
    expect(await nft.getFunction('tokenURI')(tokenId)).toBe('https://cube.example/nft/1.json')
    const [receiver, amount] = (await nft.getFunction('royaltyInfo')(tokenId, 10_000n)) as [string, bigint]
    expect([receiver, amount]).toEqual([owner, 500n])
    // A token nobody minted reverts: an answer about the chain, not a server fault.
    await expect(nft.getFunction('ownerOf')(999n)).rejects.toThrow(/revert|ERC721NonexistentToken|execution/i)
    provider.destroy()
  })

  it('answers a batch in order and says which calls failed', async () => {
    const { status, json } = await call(server, [one('eth_chainId', [], 'a'), one('eth_accounts', [], 'b'), one('net_version', [], 'c')])
    expect(status).toBe(200)
    const answers = json as unknown as { id: string; result?: string; error?: { code: number } }[]
    expect(answers.map((a) => a.id)).toEqual(['a', 'b', 'c'])
    expect(answers[0]!.result).toBe('0x7a69')
    // eth_accounts would list the twenty public development accounts as if they were the node's own.
    expect(answers[1]!.error?.code).toBe(-32601)
    expect(answers[2]!.result).toBe('31337')
  })
})

describe('blockchain_configs names the served URL', () => {
  it('a tool that reads the chain rows through the API finds a URL it can call, on the chain and contract the row names', async () => {
    const columns = 'name,embedded,testnet,testnet_rpc_url,mainnet_rpc_url,chain_id,contract_address'
    const res = await fetch(`${server.url}/rest/v1/blockchain_configs?select=${columns}&order=name`, {
      headers: { apikey: server.keys.anonKey },
    })
    expect(res.status).toBe(200)
    const rows = (await res.json()) as {
      name: string
      embedded: boolean
      testnet: boolean
      testnet_rpc_url: string | null
      mainnet_rpc_url: string | null
      chain_id: number | null
      contract_address: string | null
    }[]
    const embedded = rows.filter((r) => r.embedded)
    expect(embedded.map((r) => r.name)).toEqual(['ethereum', 'polygon'])
    for (const row of embedded) {
      expect(row.testnet ? row.testnet_rpc_url : row.mainnet_rpc_url, row.name).toBe(rpcUrl(server))
      const provider = new JsonRpcProvider(row.testnet_rpc_url!, undefined, { staticNetwork: true, batchMaxCount: 1 })
      expect(Number((await provider.getNetwork()).chainId)).toBe(row.chain_id)
      expect(await provider.getCode(row.contract_address!)).toMatch(/^0x[0-9a-f]{100,}$/)
      provider.destroy()
    }
    // The chains it does not back keep their own URLs (none on the local backend): nothing points them here.
    for (const row of rows.filter((r) => !r.embedded)) expect([row.testnet_rpc_url, row.mainnet_rpc_url], row.name).toEqual([null, null])
  })
})

describe('/chain/rpc refuses every write that is not the server’s own', () => {
  it('eth_sendTransaction from a development account the EVM would sign for: refused, nothing mined', async () => {
    const before = await call(server, one('eth_blockNumber'))
    const sent = await call(
      server,
      one('eth_sendTransaction', [{ from: PUBLIC_DEV_ADDRESS, to: Wallet.createRandom().address, value: '0x1' }]),
    )
    expect(sent.json.error?.code).toBe(WRITE_REFUSED)
    expect(sent.json.error?.message).toMatch(/transactions from the CUBE Music server only/)
    expect((await call(server, one('eth_blockNumber'))).json).toEqual(before.json)
  })

  it('a transaction signed with the public development key, sent raw through ethers: refused', async () => {
    const provider = new JsonRpcProvider(rpcUrl(server), undefined, { staticNetwork: true, batchMaxCount: 1 })
    const outsider = new Wallet(PUBLIC_DEV_KEY, provider)
    const minter = server.chain!.minter.address
    const balance = await provider.getBalance(minter)
    // Draining the minter is impossible without its key; moving funds of a funded public account would fill the chain.
    await expect(outsider.sendTransaction({ to: minter, value: parseEther('1') })).rejects.toThrow(/refused/)
    expect(await provider.getBalance(minter)).toBe(balance)
    provider.destroy()
  })

  it('the development chain’s own controls are refused: setBalance, mine, impersonation, signing', async () => {
    for (const [method, params] of [
      ['hardhat_setBalance', [PUBLIC_DEV_ADDRESS, '0x1']],
      ['hardhat_impersonateAccount', [server.chain!.minter.address]],
      ['evm_mine', []],
      ['evm_setNextBlockTimestamp', [1]],
      ['eth_sign', [PUBLIC_DEV_ADDRESS, '0x00']],
      ['personal_sign', ['0x00', PUBLIC_DEV_ADDRESS]],
      ['eth_signTypedData_v4', [PUBLIC_DEV_ADDRESS, '{}']],
      ['debug_traceTransaction', ['0x00']],
    ] as const) {
      const { json } = await call(server, one(method, [...params]))
      expect(json.error?.code, method).toBe(WRITE_REFUSED)
    }
  })

  it('malformed bodies, unknown methods, oversized batches: JSON-RPC errors, and the route keeps working', async () => {
    const bad = await fetch(rpcUrl(server), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{not json' })
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700)
    expect((await call(server, { method: 'eth_chainId' })).json.error?.code).toBe(-32600)
    expect((await call(server, [])).json.error?.code).toBe(-32600)
    expect((await call(server, one('eth_nonsense'))).json.error?.message).toMatch(/does not exist/)
    const tooMany = await call(
      server,
      Array.from({ length: MAX_BATCH + 1 }, (_, i) => one('eth_chainId', [], i)),
    )
    expect(tooMany.json.error?.message).toMatch(new RegExp(`At most ${MAX_BATCH} calls`))
    expect((await call(server, one('eth_chainId'))).json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  it('each client address has a rate limit (LOCAL_CHAIN_RPC_RATE_LIMIT), a batch counting each call', async () => {
    await routeAlone({ send: server.chain!.rpc, rateLimit: { max: 5, seconds: 60 } }, async (limited) => {
      const batch = await call(
        limited,
        Array.from({ length: 4 }, (_, i) => one('eth_chainId', [], i)),
      )
      expect((batch.json as unknown as unknown[]).length).toBe(4)
      expect((await call(limited, one('eth_chainId'))).json.result).toBe('0x7a69')
      const over = await call(limited, one('eth_chainId'))
      expect(over.json.error).toEqual({ code: -32005, message: 'Request rate limit reached: try again in a minute' })
    })
  })
})

describe('/chain/rpc without the chain (LOCAL_CHAIN=off)', () => {
  it('says the server runs without it', async () => {
    await routeAlone({ send: undefined }, async (off) => {
      const { status, json } = await call(off, one('eth_chainId'))
      expect(status).toBe(503)
      expect(json.error?.message).toMatch(/without the embedded chain/)
    })
  })
})

describe('/chain/rpc answers everyone without blocking the minter', () => {
  /** Runs forever: JUMPDEST, PUSH1 0, JUMP. Sent as init code, so nobody needs to deploy it. */
  const ENDLESS_LOOP = '0x5b600056'

  it('a hostile caller looping eth_estimateGas / eth_call of an endless loop: mints keep their latency, it gets an error', async () => {
    const chain = server.chain!
    const minting = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, chain.minter)
    const mintOnce = async () => {
      const owner = Wallet.createRandom().address
      const started = performance.now()
      await (await minting.getFunction('mint')(owner, `https://cube.example/nft/${owner}.json`, owner, 500)).wait()
      return performance.now() - started
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    const mints = async () => {
      const times: number[] = []
      for (let i = 0; i < 5; i++) times.push(await mintOnce())
      return median(times)
    }
    const baseline = await mints()

    let stop = false
    const errors: { code: number; message: string }[] = []
    const hostile = async (method: string) => {
      while (!stop) {
        const { json } = await call(server, one(method, [{ data: ENDLESS_LOOP }]))
        if (json.error) errors.push(json.error)
      }
    }
    const callers = [hostile('eth_estimateGas'), hostile('eth_call')]
    // Let the first endless loops start running before the mints.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const loaded = await mints()
    stop = true
    await Promise.all(callers)

    console.info(`mint median: ${baseline.toFixed(0)} ms unloaded, ${loaded.toFixed(0)} ms while 2 callers loop endless estimates/calls`)
    expect(loaded).toBeLessThan(baseline * 8)
    expect(errors.length).toBeGreaterThan(0)
    for (const error of errors) expect(error.message).toMatch(/capped at|busy|took longer/)
    // Once the loops already running have burnt their capped gas, the public's calls are answered again.
    const provider = new JsonRpcProvider(rpcUrl(server), undefined, { staticNetwork: true, batchMaxCount: 1 })
    const nft = new Contract(chain.contractAddress, NFT_ARTIFACT.abi as never, provider)
    await vi.waitFor(async () => expect(await nft.getFunction('ownerOf')(1n)).toMatch(/^0x/), { timeout: 60_000, interval: 500 })
    provider.destroy()
  }, 120_000)
})
