import { useQuery } from '@tanstack/react-query'
import { useBackend } from '../../domain/session/backend-context.ts'
import { economyKeys } from '../../domain/economy/economy-keys.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** One transaction's receipt and token, read back from the chain itself. */
export function useChainTransaction(chain: string, hash: string) {
  const backend = useBackend()
  // A mined transaction never changes: read once per page.
  const query = useQuery({
    queryKey: economyKeys.chainTransaction(chain, hash),
    queryFn: () => backend.web3.fetchChainTransaction(chain, hash),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  return { tx: query.data ?? null, error: query.error ? errorMessage(query.error) : null }
}
