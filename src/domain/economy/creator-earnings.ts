import { useQuery } from '@tanstack/react-query'
import type { CreatorEarnings } from '../../backend/wallet.ts'
import { useBackend } from '../session/backend-context.ts'
import { useSessionStore } from '../session/session-store.ts'
import { economyKeys } from './economy-keys.ts'

export type { CreatorEarnings }

export type CreatorEarningsState =
  | { status: 'signed-out' }
  | { status: 'loading' }
  | { status: 'ready'; earnings: CreatorEarnings }
  | { status: 'error'; message: string }

/**
 * What the signed-in creator's published songs earned from other people's listens. Other people's
 * listens are not seen here, so the figure is read when the view opens (staleTime 0), not after
 * each of this account's own movements.
 */
export function useCreatorEarnings(): CreatorEarningsState {
  const backend = useBackend()
  const userId = useSessionStore((s) => s.user?.id)
  const query = useQuery({
    queryKey: economyKeys.creatorEarnings(userId ?? ''),
    queryFn: () => backend.wallet.fetchCreatorEarnings(),
    enabled: !!userId,
    staleTime: 0,
    retry: false,
  })
  if (!userId) return { status: 'signed-out' }
  if (query.isError) return { status: 'error', message: 'Creator earnings could not be loaded. Try again later.' }
  return query.data ? { status: 'ready', earnings: query.data } : { status: 'loading' }
}
