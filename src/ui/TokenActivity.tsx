import { SAMPLE_TOKEN_ACTIVITY, type TokenActivityItem } from './token-activity-sample.ts'

const BADGE: Record<TokenActivityItem['action'], string> = {
  MINE: 'bg-primary/15 text-primary',
  BURN: 'bg-secondary/15 text-secondary',
  NONE: 'bg-line text-muted',
}
const FIGURE: Record<TokenActivityItem['action'], string> = { MINE: 'text-primary', BURN: 'text-secondary', NONE: 'text-muted' }
const figure = (item: TokenActivityItem) =>
  item.action === 'MINE' ? `+${item.amount}` : item.action === 'BURN' ? `${item.amount} burned` : 'no CUBE'

/** Token Activity list; shows the sample ledger (clearly labelled) until real items are passed. */
export function TokenActivity({ items, sample = !items }: { items?: readonly TokenActivityItem[]; sample?: boolean }) {
  const list = items ?? SAMPLE_TOKEN_ACTIVITY
  return (
    <section aria-labelledby="token-activity-title" className="panel p-4">
      <h2 id="token-activity-title" className="font-display text-lg font-bold text-primary">
        Token Activity
      </h2>
      {sample && <p className="mt-1 text-xs text-muted">Sample activity: your own ledger appears here once your wallet is connected.</p>}
      <ul className="mt-3 space-y-2">
        {list.map((item) => (
          <li key={item.id} className="flex items-center justify-between gap-3 rounded-md border border-line px-3 py-2 text-sm">
            <span className={`rounded px-2 py-0.5 text-xs font-bold ${BADGE[item.action]}`}>{item.action}</span>
            <span className="min-w-0 flex-1 truncate">
              <span className="capitalize">{item.type}</span> · {item.song}
            </span>
            <span className="text-muted">{item.timestamp}</span>
            <span className={`font-bold tabular-nums ${FIGURE[item.action]}`}>{figure(item)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
