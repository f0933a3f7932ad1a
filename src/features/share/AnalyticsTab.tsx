import type { ShareAnalytics } from '../../backend/sharing.ts'
import { STAT_SCALES, barPercent } from './share-links.ts'

function StatBar({ label, value, scale, testId }: { label: string; value: number; scale: number; testId: string }) {
  const pct = barPercent(value, scale)
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-between text-sm">
        <span>{label}</span>
        <span className="font-bold tabular-nums" data-testid={testId}>
          {value}
        </span>
      </div>
      <div
        role="meter"
        aria-label={`${label}: ${value} of ${scale}`}
        aria-valuemin={0}
        aria-valuemax={scale}
        aria-valuenow={Math.min(value, scale)}
        className="h-2 rounded-full bg-line"
      >
        <div className="h-2 rounded-full bg-primary" style={{ width: `${pct}%` }} data-testid={`${testId}-bar`} />
      </div>
    </div>
  )
}

/** Profile visits, track plays, followers and shares from the server, with the last 30 days. */
export function AnalyticsTab({ analytics }: { analytics: ShareAnalytics | null }) {
  if (!analytics) return <p className="text-muted">...</p>
  const max = Math.max(1, ...analytics.days.map((d) => d.visits + d.plays + d.shares))
  return (
    <div className="flex flex-col gap-4">
      <section aria-label="Your reach" className="panel grid gap-4 p-4 sm:grid-cols-2">
        <StatBar label="Profile visits" value={analytics.profile_visits} scale={STAT_SCALES.visits} testId="stat-visits" />
        <StatBar label="Track plays" value={analytics.track_plays} scale={STAT_SCALES.plays} testId="stat-plays" />
        <StatBar label="Followers" value={analytics.followers} scale={STAT_SCALES.followers} testId="stat-followers" />
        <div className="flex justify-between text-sm">
          <span>Paid shares (opened by someone else)</span>
          <span className="font-bold tabular-nums" data-testid="stat-shares">
            {analytics.shares}
          </span>
        </div>
        <div className="flex justify-between text-sm">
          <span>Links waiting for a visitor</span>
          <span className="font-bold tabular-nums" data-testid="stat-shares-pending">
            {analytics.shares_pending ?? 0}
          </span>
        </div>
      </section>
      <section aria-label="Last 30 days" className="panel p-4">
        <h2 className="mb-2 font-bold">Last 30 days</h2>
        <ol className="flex h-32 items-end gap-0.5" data-testid="analytics-chart">
          {analytics.days.map((d) => {
            const total = d.visits + d.plays + d.shares
            return (
              <li
                key={d.day}
                className="flex h-full flex-1 items-end"
                title={`${d.day}: ${d.visits} visits, ${d.plays} plays, ${d.shares} shares`}
              >
                <span className="sr-only">{`${d.day}: ${d.visits} visits, ${d.plays} plays, ${d.shares} shares`}</span>
                <span
                  aria-hidden="true"
                  className="w-full rounded-t bg-accent"
                  style={{ height: `${(total / max) * 100}%`, minHeight: total > 0 ? 2 : 0 }}
                />
              </li>
            )
          })}
        </ol>
      </section>
    </div>
  )
}
