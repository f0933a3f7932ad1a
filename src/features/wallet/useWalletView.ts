import { useEffect, useState } from 'react'
import { countHistory } from '../../backend/profile.ts'
import { useSessionStore, type WalletBasics, type WalletStatus } from '../../domain/session/session-store.ts'
import { SAMPLE_WALLET } from './sample-wallet.ts'

export interface WalletView {
  source: 'server' | 'sample' | 'loading'
  wallet: WalletBasics | null
  status: WalletStatus
  /** Rows in today's (UTC) listening history; the sample's credited count for visitors. */
  tracksToday: number | null
}

const startOfUtcDay = (at = new Date()) => `${at.toISOString().slice(0, 10)}T00:00:00.000Z`

/** The wallet basics to show: the server's figures for a signed-in user, the sample wallet for visitors. */
export function useWalletView(): WalletView {
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id)
  const wallet = useSessionStore((s) => s.wallet)
  const walletStatus = useSessionStore((s) => s.walletStatus)
  const version = useSessionStore((s) => s.activityVersion)
  const [today, setToday] = useState<{ userId: string; count: number } | null>(null)

  useEffect(() => {
    if (!userId) return
    let live = true
    countHistory(userId, startOfUtcDay())
      .then((count) => live && setToday({ userId, count }))
      .catch((error: unknown) => console.warn('history count failed', error))
    return () => {
      live = false
    }
  }, [userId, version, wallet?.listens_today])

  if (status === 'loading') return { source: 'loading', wallet: null, status: 'loading', tracksToday: null }
  if (status === 'signed-out') return { source: 'sample', wallet: SAMPLE_WALLET, status: 'ready', tracksToday: SAMPLE_WALLET.listens_today }
  return { source: 'server', wallet, status: walletStatus, tracksToday: today && today.userId === userId ? today.count : null }
}
