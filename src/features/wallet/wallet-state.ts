// walletState in localStorage, as the reference keeps it: a cache of what the server says (the
// linked address), re-checked on load. Never the source of a balance or of ownership.

export type WalletChain = 'ETH' | 'BTC' | 'SOL'
export const WALLET_CHAINS: readonly WalletChain[] = ['ETH', 'BTC', 'SOL']

export interface WalletState {
  isConnected: boolean
  selectedChain: WalletChain
  /** Shortened for display (0x1234...abcd). */
  walletAddress: string
}

export const WALLET_STATE_KEY = 'walletState'
export const DEFAULT_WALLET_STATE: WalletState = { isConnected: false, selectedChain: 'ETH', walletAddress: '' }

export const shortenAddress = (address: string): string => (address.length > 12 ? `${address.slice(0, 6)}...${address.slice(-4)}` : address)

/** The stored state, or the default when there is none; an unparsable one is logged and ignored. */
export function loadWalletState(storage: Pick<Storage, 'getItem'> = localStorage): WalletState {
  const raw = storage.getItem(WALLET_STATE_KEY)
  if (!raw) return DEFAULT_WALLET_STATE
  try {
    const v = JSON.parse(raw) as Partial<WalletState>
    if (typeof v !== 'object' || v === null) throw new Error('not an object')
    return {
      isConnected: v.isConnected === true,
      selectedChain: WALLET_CHAINS.includes(v.selectedChain as WalletChain) ? (v.selectedChain as WalletChain) : 'ETH',
      walletAddress: typeof v.walletAddress === 'string' ? v.walletAddress.slice(0, 20) : '',
    }
  } catch (error) {
    console.warn('Ignoring an unreadable walletState in localStorage', error)
    return DEFAULT_WALLET_STATE
  }
}

export function saveWalletState(state: WalletState, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(WALLET_STATE_KEY, JSON.stringify(state))
}

/** Disconnect: the cache forgets the wallet (the chain choice stays). */
export function clearWalletState(selectedChain: WalletChain, storage: Pick<Storage, 'setItem'> = localStorage): void {
  saveWalletState({ ...DEFAULT_WALLET_STATE, selectedChain }, storage)
}
