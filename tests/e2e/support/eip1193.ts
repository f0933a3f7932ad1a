import { getBytes, type HDNodeWallet, type Wallet } from 'ethers'
import type { Page } from '@playwright/test'

export type WalletMode = 'none' | 'reject' | 'ok'

/**
 * An injected EIP-1193 provider (window.ethereum) backed by a real ethers Wallet in the test process:
 * eth_requestAccounts answers its address, personal_sign is signed by its key. `setMode` switches
 * between no provider at all, a user who rejects, and a user who approves.
 */
export async function injectWallet(page: Page, wallet: Wallet | HDNodeWallet, mode: WalletMode = 'ok') {
  await page.exposeFunction('__cubeTestSign', (hex: string) => wallet.signMessage(getBytes(hex)))
  await page.addInitScript(
    ({ address, initial }) => {
      const w = window as unknown as { __walletMode: string; __cubeTestSign: (hex: string) => Promise<string> }
      w.__walletMode = initial
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') {
            if (w.__walletMode === 'reject') throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
            return [address]
          }
          if (method === 'eth_chainId') return '0x7a69'
          if (method === 'net_version') return '31337'
          if (method === 'personal_sign') return w.__cubeTestSign(String(params?.[0]))
          throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 })
        },
        on() {},
        removeListener() {},
      }
      Object.defineProperty(window, 'ethereum', { configurable: true, get: () => (w.__walletMode === 'none' ? undefined : provider) })
    },
    { address: wallet.address, initial: mode },
  )
  return { setMode: (m: WalletMode) => page.evaluate((x) => ((window as unknown as { __walletMode: string }).__walletMode = x), m) }
}

/** The signed-in user's access token from supabase-js's storage, for direct API checks. */
export const accessToken = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))
    return key ? (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token : ''
  })
