import { useQuery } from '@tanstack/react-query'
import { useBackend } from '../../domain/session/backend-context.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { economyKeys } from '../../domain/economy/economy-keys.ts'
import { useShareLinksStore } from '../../domain/economy/share-links-store.ts'
import { SAMPLE_ACTIVITY } from './sample-wallet.ts'
import { songTitleLookup } from './song-titles.ts'
import { ledgerToActivity, newestFirst, shareOpenActivity, type TokenActivityItem } from './token-activity.ts'

export interface TokenActivity {
  items: readonly TokenActivityItem[]
  /** 'ledger' for a signed-in user's real movements, 'sample' for visitors. */
  source: 'ledger' | 'sample' | 'loading'
}

/**
 * Token Activity: the signed-in user's ledger (newest first) with what happened to each shared
 * link that paid nothing and why; sample rows for visitors. A credited listen writes its row into
 * the cached ledger (ledger-cache.ts), and the links arrive live, so neither costs a reread.
 */
export function useTokenActivity(limit = 7): TokenActivity {
  const backend = useBackend()
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id)
  const links = useShareLinksStore((s) => s.links)
  const ledger = useQuery({
    queryKey: economyKeys.recentLedger(userId ?? '', limit),
    queryFn: () => backend.wallet.fetchLedger(userId!, limit),
    enabled: !!userId,
  })
  const titles = useQuery({
    queryKey: economyKeys.songTitles(),
    queryFn: () => songTitleLookup(backend.profile.fetchSongs),
    enabled: !!userId,
    staleTime: Number.POSITIVE_INFINITY,
  })

  if (status !== 'signed-in')
    return { items: status === 'loading' ? [] : SAMPLE_ACTIVITY, source: status === 'loading' ? 'loading' : 'sample' }
  if (!ledger.data || !titles.data) return { items: [], source: 'loading' }
  const title = titles.data
  const rows = [...ledger.data.map((r) => ledgerToActivity(r, title)), ...shareOpenActivity(Object.values(links), title)]
  return { items: newestFirst(rows).slice(0, limit), source: 'ledger' }
}
