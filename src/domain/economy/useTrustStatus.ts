import { useQuery } from '@tanstack/react-query'
import type { TrustStatus } from '../../backend/trust.ts'
import { useBackend } from '../session/backend-context.ts'
import { useSessionStore } from '../session/session-store.ts'
import { economyKeys } from './economy-keys.ts'

/**
 * The signed-in user's trust status from the server (my_trust_status), read when a view of it
 * opens and again after a movement the ledger cache reports (`ledgerChanged` covers the claim);
 * null while signed out or loading.
 */
export function useTrustStatus(): TrustStatus | null {
  const backend = useBackend()
  const userId = useSessionStore((s) => s.user?.id)
  const query = useQuery({
    queryKey: economyKeys.trust(userId ?? ''),
    queryFn: () => backend.trust.fetchTrustStatus(),
    enabled: !!userId,
    staleTime: 0,
  })
  return userId ? (query.data ?? null) : null
}
