import type { ShareLink } from '../../backend/sharing.ts'
import { PLATFORM_LABEL, linkStatusText } from './share-links.ts'

/** One link's state in words: "Pending — pays N CUBE when someone opens your link", then "Credited +N CUBE". */
export function ShareLinkStatus({ link }: { link: ShareLink }) {
  const credited = link.status === 'credited'
  return (
    <span className={credited ? 'font-semibold text-accent' : 'text-muted'} data-testid="share-link-status" data-status={link.status}>
      {linkStatusText(link)}
    </span>
  )
}

/**
 * The user's links with their state, live (the list re-renders when Realtime reports a credit).
 * `describe` names each link's item when the list mixes items.
 */
export function ShareLinkList({
  links,
  label,
  describe,
}: {
  links: readonly ShareLink[]
  label: string
  describe?: (link: ShareLink) => string
}) {
  if (links.length === 0) return null
  return (
    <ul aria-label={label} aria-live="polite" className="flex flex-col gap-1 text-sm" data-testid="share-link-list">
      {links.map((link) => (
        <li key={link.id} className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="font-semibold">
            {PLATFORM_LABEL[link.platform]}
            {describe && <span className="font-normal text-muted"> · {describe(link)}</span>}
          </span>
          <ShareLinkStatus link={link} />
        </li>
      ))}
    </ul>
  )
}
