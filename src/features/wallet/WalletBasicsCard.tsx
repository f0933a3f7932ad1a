import { useState } from 'react'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { initialiseWallet } from '../../domain/session/session-sync.ts'
import { dailyCapStatus, useRewardRules } from '../../domain/economy/reward-rules.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { TokenActivityList } from './TokenActivityList.tsx'
import { useTokenActivity } from './useTokenActivity.ts'
import { FIGURE_LABELS } from '../../domain/economy/figure-labels.ts'
import { useWalletView } from './useWalletView.ts'
import { useTrustStatus } from '../../domain/economy/useTrustStatus.ts'
import { LockedBalanceNote } from './LockedBalanceNote.tsx'

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border border-line bg-bg/60 p-3">
      <dt className="text-xs uppercase tracking-widest text-muted">{label}</dt>
      <dd className="mt-1 font-display text-xl font-bold text-fg" data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}

/** Balance, daily earned, tracks listened today and the daily cap, as the server reports them. */
export function WalletBasicsCard({ showActivity = true }: { showActivity?: boolean }) {
  const view = useWalletView()
  const activity = useTokenActivity(7)
  const userId = useSessionStore((s) => s.user?.id)
  const trust = useTrustStatus()
  const openAuth = useAuthModalStore((s) => s.open)
  const [retrying, setRetrying] = useState(false)
  const w = view.wallet
  const show = (n: number | null | undefined, unit = '') => (n === null || n === undefined ? '...' : `${n}${unit}`)
  // The server's daily cap (the documented default until it has answered: data-rules-source).
  const dailyCap = useRewardRules((s) => s.rules.listen.daily_cap)
  const rulesSource = useRewardRules((s) => s.source)
  const cap = w ? dailyCapStatus(w.listens_today, dailyCap) : null
  const progress = cap?.progress ?? 0

  const retry = async () => {
    if (!userId) return
    setRetrying(true)
    await initialiseWallet(userId)
    setRetrying(false)
  }

  return (
    <section
      className="panel space-y-4 p-5"
      aria-labelledby="wallet-basics-title"
      data-testid="wallet-basics"
      data-source={view.source}
      data-rules-source={rulesSource}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="wallet-basics-title" className="font-display text-lg font-bold text-primary">
          CUBE Wallet
        </h2>
        {view.source === 'sample' && (
          <p className="text-xs text-muted">
            Sample wallet ·{' '}
            <button type="button" className="text-primary underline" onClick={() => openAuth('register')}>
              Register to earn your own CUBE
            </button>
          </p>
        )}
      </div>
      {view.status === 'error' && (
        <div
          role="alert"
          className={
            'flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-500/60 bg-red-500/10 ' +
            'px-3 py-2 text-sm text-red-400'
          }
        >
          There was an error setting up your wallet.
          <button
            type="button"
            onClick={retry}
            disabled={retrying}
            className="rounded border border-red-400/70 px-2 py-1 text-red-300 hover:bg-red-500/20 disabled:opacity-60"
          >
            {retrying ? 'Retrying…' : 'Try again'}
          </button>
        </div>
      )}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Balance" value={show(w?.balance, ' CUBE')} testId="wallet-balance" />
        {/* One name and one server figure per number, as on Listen to Earn. */}
        <Stat label={FIGURE_LABELS.listeningToday} value={show(w?.daily_earned, ' CUBE')} testId="wallet-daily-earned" />
        <Stat label={FIGURE_LABELS.rewardedListensToday} value={show(w?.listens_today)} testId="wallet-tracks-today" />
        <Stat label="Daily Cap" value={`${dailyCap} listens`} testId="wallet-daily-cap" />
      </dl>
      {view.source !== 'sample' && <LockedBalanceNote status={trust} />}
      <div>
        <div className="mb-1 flex justify-between text-sm">
          <span id="wallet-progress-label" className="text-fg/90">
            Daily listening rewards
          </span>
          <span className="font-mono text-fg" data-testid="wallet-progress">
            {w ? `${progress}/${dailyCap}` : '...'}
          </span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="wallet-progress-label"
          aria-valuemin={0}
          aria-valuemax={dailyCap}
          aria-valuenow={progress}
          aria-valuetext={`${progress} of ${dailyCap} rewarded listens today`}
          className="h-2 overflow-hidden rounded-full bg-line/60"
        >
          <div
            className="h-full rounded-full bg-gradient-to-r from-primary to-secondary"
            style={{ width: `${(progress / dailyCap) * 100}%` }}
          />
        </div>
        {cap?.capped && (
          <p className="mt-2 text-sm text-accent" data-testid="wallet-cap-note">
            {cap.note}. Rewards start again at 00:00 UTC.
          </p>
        )}
      </div>
      {showActivity && (
        <div>
          <h3 className="mb-1 text-sm font-semibold uppercase tracking-widest text-muted">Recent token history</h3>
          {activity.source === 'loading' ? (
            <p className="text-sm text-muted">Loading…</p>
          ) : (
            <TokenActivityList items={activity.items} label="Recent token history" />
          )}
        </div>
      )}
    </section>
  )
}
