import { relativeTime } from '../../lib/relative-time.ts'
import type { TokenActivityItem } from './token-activity.ts'

const TYPE_LABEL: Record<TokenActivityItem['type'], string> = {
  listen: 'Listen',
  comment: 'Comment',
  share: 'Share',
  remix: 'Remix',
  create: 'Create',
  mint: 'Mint',
  claim: 'Claim',
  welcome: 'Welcome',
  other: 'Other',
}

/** A compact list of CUBE movements; MINE in the primary colour, BURN in the secondary one. */
export function TokenActivityList({
  items,
  emptyText = 'No token activity yet.',
  label = 'Token activity',
}: {
  items: readonly TokenActivityItem[]
  emptyText?: string
  label?: string
}) {
  if (items.length === 0) return <p className="text-sm text-muted">{emptyText}</p>
  return (
    <ul className="divide-y divide-line/60" aria-label={label} data-testid="token-activity">
      {items.map((item) => (
        <li key={item.id} className="flex items-center justify-between gap-3 py-2 text-sm" data-testid="token-activity-item">
          <div className="min-w-0">
            <p className="truncate text-fg">{item.song}</p>
            <p className="text-xs text-muted">
              {TYPE_LABEL[item.type]} · {relativeTime(item.timestamp)}
            </p>
          </div>
          {item.action === 'NONE' ? (
            <span className="shrink-0 font-mono text-muted">no CUBE</span>
          ) : (
            <span className={`shrink-0 font-mono font-semibold ${item.action === 'MINE' ? 'text-primary' : 'text-secondary'}`}>
              {item.action === 'MINE' ? '+' : '−'}
              {item.amount} CUBE
              <span className="sr-only"> {item.action === 'MINE' ? 'mined' : 'burned'}</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}
