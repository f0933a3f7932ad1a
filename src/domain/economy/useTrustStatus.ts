import { useEffect, useState } from 'react'
import { fetchTrustStatus, type TrustStatus } from '../../backend/trust.ts'
import { useSessionStore } from '../session/session-store.ts'

/**
 * The signed-in user's trust status from the server (my_trust_status), read again whenever the
 * balance or the account's activity changes; null while signed out or loading.
 */
export function useTrustStatus(): TrustStatus | null {
  const userId = useSessionStore((s) => s.user?.id)
  const balance = useSessionStore((s) => s.wallet?.balance)
  const version = useSessionStore((s) => s.activityVersion)
  const [state, setState] = useState<{ userId: string; status: TrustStatus } | null>(null)
  useEffect(() => {
    if (!userId) return
    let live = true
    fetchTrustStatus().then(
      (status) => live && setState({ userId, status }),
      (error: unknown) => console.warn('trust status failed to load', error),
    )
    return () => {
      live = false
    }
  }, [userId, balance, version])
  return state && state.userId === userId ? state.status : null
}
