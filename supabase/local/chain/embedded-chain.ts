import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BrowserProvider, Contract, ContractFactory, Wallet, parseEther, type Eip1193Provider } from 'ethers'
// Hardhat 2's in-process EVM (EDR, a native binary shipped inside the npm package). Hardhat 3 needs
// EDR 0.22, whose binaries declare Node >= 22 and are skipped by npm on this Node 20 machine.
import { createProvider } from 'hardhat/internal/core/providers/construction.js'
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution.js'
import { SIMULATIONS, publicCalls } from './public-calls.ts'

const here = dirname(fileURLToPath(import.meta.url))
export const NFT_ARTIFACT = JSON.parse(readFileSync(join(here, '..', '..', '..', 'contracts', 'CubeMusicNFT.json'), 'utf8')) as {
  abi: unknown[]
  bytecode: string
}

/** Hardhat's default chain id: wallets know it as a local development chain. */
export const EMBEDDED_CHAIN_ID = 31337

export interface EmbeddedChain {
  /** ethers provider over the in-process EIP-1193 provider; throws while stopped. */
  provider: BrowserProvider
  /** The server's minter (owner of the contract). Its key never leaves this process. */
  minter: Wallet
  contractAddress: string
  /**
   * One public JSON-RPC call (what /chain/rpc passes on after its own checks): eth_call and
   * eth_estimateGas run capped on a fork (public-calls.ts), never in the minter's queue.
   */
  rpc(method: string, params: unknown[]): Promise<unknown>
  /** Stops the fork's loopback port. */
  close(): Promise<void>
  /** Stops answering (every request fails) until started again: what an unreachable RPC looks like. */
  stop(): void
  start(): void
  readonly running: boolean
}

/**
 * A fresh local EVM development chain in this process, a random minter key funded on it, and the
 * CubeMusicNFT contract (contracts/CubeMusicNFT.json) deployed with the minter as its owner.
 */
export async function startEmbeddedChain(): Promise<EmbeddedChain> {
  const config = resolveConfig(fileURLToPath(import.meta.url) /* no config file: this module stands for it */, {
    networks: { hardhat: { chainId: EMBEDDED_CHAIN_ID, loggingEnabled: false, mining: { auto: true, interval: 0 } } },
  })
  const raw = await createProvider(config, 'hardhat')
  let running = true
  const gated: Eip1193Provider = {
    request: (args) => {
      if (!running) return Promise.reject(new Error('The embedded chain is stopped (no RPC answer)'))
      return raw.request(args as { method: string; params?: unknown[] })
    },
  }
  const provider = new BrowserProvider(gated, EMBEDDED_CHAIN_ID, { cacheTimeout: -1, pollingInterval: 50 })
  const minter = new Wallet(Wallet.createRandom().privateKey, provider)
  await raw.request({ method: 'hardhat_setBalance', params: [minter.address, `0x${parseEther('10000').toString(16)}`] })
  const factory = new ContractFactory(NFT_ARTIFACT.abi as never, NFT_ARTIFACT.bytecode, minter)
  const contract = await factory.deploy(minter.address)
  await contract.waitForDeployment()
  const simulations = publicCalls(gated as Parameters<typeof publicCalls>[0], EMBEDDED_CHAIN_ID)
  return {
    provider,
    minter,
    contractAddress: await contract.getAddress(),
    rpc: (method, params) => (SIMULATIONS.has(method) ? simulations.simulate(method, params) : gated.request({ method, params })),
    close: () => simulations.close(),
    stop: () => {
      running = false
    },
    start: () => {
      running = true
    },
    get running() {
      return running
    },
  }
}

export const nftContract = (address: string, runner: ConstructorParameters<typeof Contract>[2]) =>
  new Contract(address, NFT_ARTIFACT.abi as never, runner)
