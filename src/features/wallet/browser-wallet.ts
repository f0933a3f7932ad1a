// The browser side of connecting a wallet: EIP-1193 (window.ethereum) through ethers v6's
// BrowserProvider, and the ownership proof (Sign-In with Ethereum) the server verifies.
import { BrowserProvider, getAddress, hexlify, toUtf8Bytes, type Eip1193Provider } from 'ethers'
import { issueWalletNonce, linkAccountWallet, verifyWallet, type BlockchainConfig } from '../../backend/web3.ts'
import { siweMessage } from './siwe-message.ts'
import { NoWalletProviderError, type WalletConnectDeps } from './wallet-connect-machine.ts'

type InjectedProvider = Eip1193Provider & {
  on?: (event: string, fn: (...args: unknown[]) => void) => void
  removeListener?: (event: string, fn: (...args: unknown[]) => void) => void
}

export const injectedProvider = (): InjectedProvider | undefined => (window as unknown as { ethereum?: InjectedProvider }).ethereum

export async function requestAccount(): Promise<{ address: string; chainId: number }> {
  const injected = injectedProvider()
  if (!injected) throw new NoWalletProviderError()
  const provider = new BrowserProvider(injected)
  const accounts = (await provider.send('eth_requestAccounts', [])) as string[]
  if (!accounts[0]) throw new Error('The wallet gave no account')
  const network = await provider.getNetwork()
  return { address: getAddress(accounts[0]), chainId: Number(network.chainId) }
}

export async function proveOwnership(account: { address: string; chainId: number }) {
  const injected = injectedProvider()
  if (!injected) throw new NoWalletProviderError()
  const nonce = await issueWalletNonce()
  const message = siweMessage({
    domain: window.location.host,
    address: account.address,
    statement: 'Sign in to CUBE Music to link this wallet to your account.',
    uri: window.location.origin,
    chainId: account.chainId,
    nonce,
    issuedAt: new Date().toISOString(),
    expirationTime: new Date(Date.now() + 5 * 60_000).toISOString(),
  })
  // personal_sign with the UTF-8 bytes, as ethers' JsonRpcSigner.signMessage sends it.
  const signature = (await injected.request({
    method: 'personal_sign',
    params: [hexlify(toUtf8Bytes(message)), account.address.toLowerCase()],
  })) as string
  return verifyWallet(message, signature)
}

export const browserWalletDeps = (accountUserId: () => string | null): WalletConnectDeps => ({
  requestAccount,
  proveOwnership,
  accountUserId,
  linkAccountWallet,
})

/** accountsChanged / chainChanged from the provider; returns the unsubscribe. */
export function watchProvider(onAccount: (address: string | null) => void, onChain: (chainId: number) => void): () => void {
  const injected = injectedProvider()
  if (!injected?.on) return () => undefined
  const accounts = (...args: unknown[]) => {
    const list = args[0] as string[] | undefined
    onAccount(list?.[0] ? getAddress(list[0]) : null)
  }
  const chain = (...args: unknown[]) => onChain(Number(args[0]))
  injected.on('accountsChanged', accounts)
  injected.on('chainChanged', chain)
  return () => {
    injected.removeListener?.('accountsChanged', accounts)
    injected.removeListener?.('chainChanged', chain)
  }
}

/** Hardhat's EVM pays gas in ether whatever chain a row of blockchain_configs names. */
const EMBEDDED_CURRENCY = { name: 'Ether', symbol: 'ETH', decimals: 18 }

/**
 * The JSON-RPC address a user's wallet can reach for a chain: the embedded chain's is the /chain/rpc
 * of the origin this page came from (the server records its own address in the row, but the user may
 * have reached it by another name); a hosted chain's, its configured URL; null when there is none.
 */
export function walletRpcUrl(chain: BlockchainConfig, origin: string): string | null {
  if (chain.embedded) return `${origin}/chain/rpc`
  const url = chain.testnet ? chain.testnet_rpc_url : chain.mainnet_rpc_url
  return url && /^https?:\/\//.test(url) ? url : null
}

/**
 * Adds the NFT's network to the user's browser wallet (EIP-3085) and the token to its collectibles
 * (EIP-747, ERC721), so the wallet shows the NFT. Rejects NoWalletProviderError without a wallet, or
 * with the wallet's own error (code 4001 when the user declined).
 */
export async function addNftToWallet(chain: BlockchainConfig, tokenId: string, origin: string = window.location.origin): Promise<void> {
  const injected = injectedProvider()
  if (!injected) throw new NoWalletProviderError()
  const rpcUrl = walletRpcUrl(chain, origin)
  if (!chain.chain_id || !chain.contract_address || !rpcUrl) throw new Error(`${chain.display_name} has no network a wallet can reach.`)
  const embedded = chain.embedded
  await injected.request({
    method: 'wallet_addEthereumChain',
    params: [
      {
        chainId: `0x${chain.chain_id.toString(16)}`,
        chainName: embedded ? `CUBE Music local chain (${chain.display_name})` : chain.display_name,
        rpcUrls: [rpcUrl],
        nativeCurrency: embedded ? EMBEDDED_CURRENCY : { name: chain.native_token, symbol: chain.native_token, decimals: 18 },
        ...(chain.explorer_url ? { blockExplorerUrls: [chain.explorer_url] } : {}),
      },
    ],
  })
  await injected.request({ method: 'wallet_watchAsset', params: { type: 'ERC721', options: { address: chain.contract_address, tokenId } } })
}
