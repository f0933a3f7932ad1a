import { queryClient } from '../session/query-client.ts'
import { economyKeys } from './economy-keys.ts'

/**
 * A wallet was linked, switched or minted into: its NFTs, claim pot, ledger and trust all depend
 * on it, so the account's whole economy reads again.
 */
export function walletChanged(userId: string | undefined): Promise<void> {
  if (!userId) return Promise.resolve()
  return queryClient.invalidateQueries({ queryKey: economyKeys.account(userId) })
}
