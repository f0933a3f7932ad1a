import { useEffect, useState } from 'react'
import { fetchLedger } from '../../backend/wallet.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { SAMPLE_ACTIVITY } from './sample-wallet.ts'
import { songTitleLookup } from './song-titles.ts'
import { ledgerToActivity, type TokenActivityItem } from './token-activity.ts'

export interface TokenActivity {
  items: readonly TokenActivityItem[]
  /** 'ledger' for a signed-in user's real movements, 'sample' for visitors. */
  source: 'ledger' | 'sample' | 'loading'
}

/** Token Activity: the signed-in user's ledger (newest first, refreshed after every movement), sample rows for visitors. */
export function useTokenActivity(limit = 7): TokenActivity {
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id)
  const version = useSessionStore((s) => s.activityVersion)
  const walletBalance = useSessionStore((s) => s.wallet?.balance)
  const [state, setState] = useState<{ key: string; items: TokenActivityItem[] } | null>(null)
  const key = `${userId}:${limit}`

  useEffect(() => {
    if (!userId) return
    let live = true
    Promise.all([fetchLedger(userId, limit), songTitleLookup()])
      .then(([rows, title]) => {
        if (live) setState({ key, items: rows.map((r) => ledgerToActivity(r, title)) })
      })
      .catch((error: unknown) => console.warn('ledger fetch failed', error))
    return () => {
      live = false
    }
    // The wallet balance changes whenever the ledger does (welcome bonus, listens), so it triggers a reread too.
  }, [userId, limit, key, version, walletBalance])

  if (status !== 'signed-in')
    return { items: status === 'loading' ? [] : SAMPLE_ACTIVITY, source: status === 'loading' ? 'loading' : 'sample' }
  if (!state || state.key !== key) return { items: [], source: 'loading' }
  return { items: state.items, source: 'ledger' }
}
