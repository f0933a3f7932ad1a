import { useSessionStore, type WalletBasics, type WalletStatus } from '../../domain/session/session-store.ts'
import { SAMPLE_WALLET } from './sample-wallet.ts'

export interface WalletView {
  source: 'server' | 'sample' | 'loading'
  wallet: WalletBasics | null
  status: WalletStatus
}

/** The wallet basics to show: the server's figures for a signed-in user, the sample wallet for visitors. */
export function useWalletView(): WalletView {
  const status = useSessionStore((s) => s.status)
  const wallet = useSessionStore((s) => s.wallet)
  const walletStatus = useSessionStore((s) => s.walletStatus)
  if (status === 'loading') return { source: 'loading', wallet: null, status: 'loading' }
  if (status === 'signed-out') return { source: 'sample', wallet: SAMPLE_WALLET, status: 'ready' }
  return { source: 'server', wallet, status: walletStatus }
}
