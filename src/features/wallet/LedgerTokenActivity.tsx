import { TokenActivity } from '../../ui/TokenActivity.tsx'
import { relativeTime } from '../../lib/relative-time.ts'
import { useTokenActivity } from './useTokenActivity.ts'

/** The player's Token Activity panel fed from the ledger (newest first); sample rows only for visitors. */
export function LedgerTokenActivity() {
  const activity = useTokenActivity(8)
  if (activity.source === 'sample') return <TokenActivity />
  return <TokenActivity items={activity.items.map((i) => ({ ...i, timestamp: relativeTime(i.timestamp) }))} sample={false} />
}
