import { useEffect, useState } from 'react'
import { fetchCreatorEarnings, type CreatorEarnings } from '../../backend/wallet.ts'
import { useSessionStore } from '../session/session-store.ts'

export type { CreatorEarnings }

export type CreatorEarningsState =
  | { status: 'signed-out' }
  | { status: 'loading' }
  | { status: 'ready'; earnings: CreatorEarnings }
  | { status: 'error'; message: string }

/** What the signed-in creator's published songs earned from other people's listens (reread after every movement). */
export function useCreatorEarnings(): CreatorEarningsState {
  const userId = useSessionStore((s) => s.user?.id)
  const version = useSessionStore((s) => s.activityVersion)
  const balance = useSessionStore((s) => s.wallet?.balance)
  const [state, setState] = useState<{ user: string; value: CreatorEarningsState } | null>(null)

  useEffect(() => {
    if (!userId) return
    let live = true
    fetchCreatorEarnings().then(
      (earnings) => live && setState({ user: userId, value: { status: 'ready', earnings } }),
      () =>
        live && setState({ user: userId, value: { status: 'error', message: 'Creator earnings could not be loaded. Try again later.' } }),
    )
    return () => {
      live = false
    }
  }, [userId, version, balance])

  if (!userId) return { status: 'signed-out' }
  return state?.user === userId ? state.value : { status: 'loading' }
}
