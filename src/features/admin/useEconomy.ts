import { useQuery } from '@tanstack/react-query'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { adminKeys } from './admin-keys.ts'

/** The Economy view's report for the last `days` UTC days, read again when `days` changes or on reload(). */
export function useEconomy(days: number) {
  const { admin, client } = useBackend()
  const query = useQuery({
    queryKey: adminKeys.economy(days),
    queryFn: () => admin.fetchEconomy(client.supabase(), days),
    staleTime: 0,
    retry: false,
  })
  return {
    report: query.data ?? null,
    error: query.isError ? errorMessage(query.error) : null,
    reload: () => void query.refetch(),
  }
}
