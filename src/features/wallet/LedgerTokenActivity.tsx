import { TokenActivity } from '../player/index.ts'
import { relativeTime } from './token-activity.ts'
import { useTokenActivity } from './useTokenActivity.ts'

/** The player's Token Activity panel fed from the ledger (newest first); sample rows only for visitors. */
export function LedgerTokenActivity() {
  const activity = useTokenActivity(8)
  if (activity.source === 'sample') return <TokenActivity />
  return <TokenActivity items={activity.items.map((i) => ({ ...i, timestamp: relativeTime(i.timestamp) }))} sample={false} />
}
