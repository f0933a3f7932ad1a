import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../tests/component/render.tsx'
import type { BlockchainConfig } from '../../backend/web3.ts'
import { AddNftToWallet } from './AddNftToWallet.tsx'
import { walletRpcUrl } from './browser-wallet.ts'

// A chain a wallet can reach: the wallet page offers to add an NFT's network (the
// embedded chain's /chain/rpc) and the token itself to the user's browser wallet.

const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => {
  const say = (kind: string) => (title: string, o?: { description?: string }) => void toasts.push(`${kind}${title}|${o?.description ?? ''}`)
  return { notify: Object.assign(say(''), { success: say('success:'), error: say('error:') }) }
})

const EMBEDDED: BlockchainConfig = {
  name: 'ethereum',
  display_name: 'Ethereum',
  icon: 'Ξ',
  enabled: true,
  testnet: true,
  mainnet_rpc_url: null,
  testnet_rpc_url: 'http://127.0.0.1:54321/chain/rpc',
  explorer_url: null,
  native_token: 'ETH',
  chain_id: 31337,
  contract_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  embedded: true,
}

let requests: { method: string; params: unknown }[] = []
let answer: (method: string) => Promise<unknown> = async () => null
const win = window as unknown as { ethereum?: unknown }

beforeEach(() => {
  toasts.length = 0
  requests = []
  answer = async () => null
  win.ethereum = {
    request: (args: { method: string; params: unknown }) => {
      requests.push(args)
      return answer(args.method)
    },
  }
})
afterEach(() => {
  delete win.ethereum
})

const click = async (el: HTMLElement) => {
  await settle(() => el.querySelector('button')!.click())
  await expect.poll(() => el.querySelector('button')!.textContent).toBe('Add to my wallet')
}

describe('Add to my wallet', () => {
  it('adds the embedded chain through this server’s /chain/rpc, then the token as an ERC721', async () => {
    const el = render(<AddNftToWallet chain={EMBEDDED} tokenId="7" />)
    await click(el)
    expect(requests).toEqual([
      {
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId: '0x7a69',
            chainName: 'CUBE Music local chain (Ethereum)',
            rpcUrls: [`${location.origin}/chain/rpc`],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          },
        ],
      },
      { method: 'wallet_watchAsset', params: { type: 'ERC721', options: { address: EMBEDDED.contract_address, tokenId: '7' } } },
    ])
    expect(toasts).toEqual(['success:Added to your wallet|Ethereum and token #7 are in your wallet now.'])
  })

  it('a declined request says so in words and asks nothing more', async () => {
    answer = async () => {
      throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    }
    const el = render(<AddNftToWallet chain={EMBEDDED} tokenId="7" />)
    await click(el)
    expect(requests.map((r) => r.method)).toEqual(['wallet_addEthereumChain'])
    expect(toasts).toEqual(['Not added|You declined in your wallet; nothing changed.'])
  })

  it('without a browser wallet: the reference’s MetaMask message', async () => {
    delete win.ethereum
    const el = render(<AddNftToWallet chain={EMBEDDED} tokenId="7" />)
    await click(el)
    expect(toasts[0]).toMatch(/^error:MetaMask Not Found\|/)
  })

  it('offers it only for a network a wallet can reach', () => {
    expect(walletRpcUrl(EMBEDDED, 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/chain/rpc')
    // The embedded chain through the page's own origin, whatever address the server recorded.
    expect(walletRpcUrl({ ...EMBEDDED, testnet_rpc_url: 'embedded' }, 'http://localhost:8080')).toBe('http://localhost:8080/chain/rpc')
    const HOSTED = { ...EMBEDDED, embedded: false }
    expect(walletRpcUrl({ ...HOSTED, testnet_rpc_url: 'https://rpc.example' }, 'x')).toBe('https://rpc.example')
    expect(walletRpcUrl({ ...HOSTED, testnet_rpc_url: null }, 'x')).toBeNull()
    expect(walletRpcUrl({ ...HOSTED, testnet: false, mainnet_rpc_url: 'javascript:alert(1)' }, 'x')).toBeNull()
  })
})
