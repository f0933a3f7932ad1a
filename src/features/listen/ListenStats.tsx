import { useId } from 'react'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { listenRulesText, useListenRules } from '../../domain/economy/reward-rules.ts'
import { LISTEN_PANEL_LABELS } from '../../domain/economy/figure-labels.ts'

/** The reference's sample figures, shown to visitors and marked as a preview. */
const PREVIEW = { balance: 128, earned: 45, listened: 9 }

function Stat({ label, value, testId, hint }: { label: string; value: string; testId: string; hint?: string }) {
  const hintId = useId()
  return (
    <div className="rounded-lg border border-line bg-bg/40 p-3">
      <p className="text-xs text-muted">{label}</p>
      <p className="text-xl font-bold tabular-nums text-primary" data-testid={testId} aria-describedby={hint ? hintId : undefined}>
        {value}
      </p>
      {hint && (
        <p id={hintId} className="mt-1 text-[11px] leading-snug text-muted" data-testid={`${testId}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}

/** Listen to Earn's stats: the reference's labels, each with what precisely it counts. */
export function StatsPanel() {
  const status = useSessionStore((s) => s.status)
  const wallet = useSessionStore((s) => s.wallet)
  const rules = useListenRules()
  const cap = rules.daily_cap
  const visitor = status === 'signed-out'
  const loading = status === 'loading' || (status === 'signed-in' && !wallet)
  const v = (n: number | undefined) => (loading ? '...' : String(n ?? 0))
  const figures = visitor
    ? { balance: PREVIEW.balance, earned: PREVIEW.earned, listened: PREVIEW.listened }
    : { balance: wallet?.balance, earned: wallet?.daily_earned, listened: wallet?.listens_today }
  return (
    <section aria-labelledby="earn-title" className="panel p-4">
      <div className="mb-3 flex items-center gap-2">
        <h2 id="earn-title" className="font-bold">
          Earn while you listen
        </h2>
        {visitor && (
          <span className="rounded-full border border-accent px-2 text-xs text-accent" data-testid="stats-preview">
            Preview · sign in for your own figures
          </span>
        )}
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="My Token Balance" value={v(figures.balance)} testId="stat-balance" />
        <Stat
          label={LISTEN_PANEL_LABELS.earnedToday.label}
          hint={LISTEN_PANEL_LABELS.earnedToday.hint}
          value={v(figures.earned)}
          testId="stat-earned"
        />
        <Stat
          label={LISTEN_PANEL_LABELS.tracksListened.label}
          hint={LISTEN_PANEL_LABELS.tracksListened.hint}
          value={v(figures.listened)}
          testId="stat-listened"
        />
        <Stat label="Daily Limit" value={loading ? '...' : `${figures.listened ?? 0}/${cap}`} testId="stat-limit" />
      </div>
      <p className="mt-3 text-xs text-muted" data-testid="listen-rules">
        {listenRulesText(rules)}
      </p>
    </section>
  )
}
