import type { LedgerEntry, ListenAnswer } from '../../backend/wallet.ts'
import type { LedgerRow } from '../../backend/web3.ts'
import { queryClient } from '../session/query-client.ts'
import { economyKeys } from './economy-keys.ts'

/**
 * A credited listen, as the server answered it, written into every cached view of the ledger: the
 * answer carries the amount and the new balance, so no view asks the server again. The row has the
 * shape the server's own row has (reason 'listen', the song as reference); its id is the
 * session's, so a later reread replaces it without a duplicate.
 */
export function recordCreditedListen(
  userId: string,
  songId: string,
  answer: Pick<ListenAnswer, 'session_id' | 'credited'>,
  at = new Date(),
) {
  if (answer.credited <= 0) return
  const row: LedgerRow = { amount: answer.credited, reason: 'listen', reference: songId, created_at: at.toISOString() }
  const entry: LedgerEntry = { ...row, id: `listen:${answer.session_id ?? at.getTime()}` }
  for (const [key, rows] of queryClient.getQueriesData<LedgerEntry[]>({ queryKey: [...economyKeys.ledger(userId), 'recent'] })) {
    const limit = key[4]
    if (!rows || typeof limit !== 'number' || rows.some((r) => r.id === entry.id)) continue
    queryClient.setQueryData<LedgerEntry[]>(key, [entry, ...rows].slice(0, limit))
  }
  for (const [key, rows] of queryClient.getQueriesData<LedgerRow[]>({ queryKey: [...economyKeys.ledger(userId), 'history'] })) {
    const limit = key[4]
    if (!rows || typeof limit !== 'number') continue
    queryClient.setQueryData<LedgerRow[]>(key, [row, ...rows].slice(0, limit))
  }
}

/**
 * A movement whose row only the server knows (a claim, a vote, a comment's credit): the ledger
 * views, the claim pot and the trust status (which the balance feeds) read again.
 */
export async function ledgerChanged(userId: string | undefined): Promise<void> {
  if (!userId) return
  await Promise.all(
    [economyKeys.ledger(userId), economyKeys.claim(userId), economyKeys.trust(userId)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  )
}
