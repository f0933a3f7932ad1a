import { useState } from 'react'
import type { EconomyReport } from '../../backend/admin.ts'
import { useEconomy } from './useEconomy.ts'

const OUTCOME_LABEL: Record<string, string> = {
  credited: 'Credited',
  song_limit: 'Song played more than twice a day',
  daily_cap: 'Daily cap reached',
  cube_cap: 'Daily listening CUBE cap reached',
  own_song: "Listener's own song",
  inactive: 'No interaction for an hour',
  address_cap: "The client address's daily bound reached",
}

/** CUBE created and destroyed per reason per day, the top earners, and how the listening rules bit: all from the ledger. */
export function EconomyTab() {
  const [days, setDays] = useState(14)
  const { report, error, reload } = useEconomy(days)
  return (
    <div className="space-y-5" data-testid="admin-economy">
      <div className="flex flex-wrap items-center gap-3">
        <label className="text-sm text-muted">
          Period{' '}
          <select
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            className="ml-1 rounded border border-line bg-bg px-2 py-1 text-fg"
          >
            <option value={1}>Today (UTC)</option>
            <option value={7}>Last 7 days</option>
            <option value={14}>Last 14 days</option>
            <option value={30}>Last 30 days</option>
          </select>
        </label>
        <button
          type="button"
          onClick={reload}
          className="rounded border border-primary/60 px-3 py-1 text-sm text-primary hover:bg-primary/10"
        >
          Refresh
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-accent">
          {error}
        </p>
      )}
      {!report && !error && <p className="text-muted">Loading the ledger…</p>}
      {report && <Report report={report} />}
    </div>
  )
}

function Report({ report }: { report: EconomyReport }) {
  const { totals } = report
  const balanced = totals.supply === totals.ledgerSum
  const days = [...new Set(report.perDay.map((d) => d.day))]
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Created in the period" value={`${totals.minted} CUBE`} testId="economy-minted" />
        <Figure label="Destroyed in the period" value={`${totals.burned} CUBE`} testId="economy-burned" />
        <Figure label="Held by all accounts" value={`${totals.supply} CUBE`} testId="economy-supply" />
        <Figure label="Accounts with a wallet" value={String(totals.accounts)} testId="economy-accounts" />
      </dl>
      <p className={`text-sm ${balanced ? 'text-muted' : 'font-bold text-accent'}`} data-testid="economy-balanced">
        {balanced
          ? `Balances equal the ledger's sum (${totals.ledgerSum} CUBE).`
          : `Balances (${totals.supply} CUBE) differ from the ledger's sum (${totals.ledgerSum} CUBE): investigate.`}
      </p>
      <section aria-labelledby="economy-days">
        <h3 id="economy-days" className="mb-2 font-semibold">
          Per day and reason
        </h3>
        {days.length === 0 ? (
          <p className="text-sm text-muted">No CUBE moved in this period.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="economy-per-day">
              <thead className="text-xs uppercase tracking-widest text-muted">
                <tr>
                  <th className="py-1 pr-3">Day (UTC)</th>
                  <th className="py-1 pr-3">Reason</th>
                  <th className="py-1 pr-3 text-right">Created</th>
                  <th className="py-1 pr-3 text-right">Destroyed</th>
                  <th className="py-1 text-right">Entries</th>
                </tr>
              </thead>
              <tbody>
                {report.perDay.map((d) => (
                  <tr key={`${d.day}:${d.reason}`} className="border-t border-line">
                    <td className="py-1 pr-3">{d.day}</td>
                    <td className="py-1 pr-3">{d.reason}</td>
                    <td className="py-1 pr-3 text-right text-primary">{d.minted || ''}</td>
                    <td className="py-1 pr-3 text-right text-accent">{d.burned || ''}</td>
                    <td className="py-1 text-right">{d.entries}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="economy-top">
        <h3 id="economy-top" className="mb-2 font-semibold">
          Top earners (welcome bonuses not counted)
        </h3>
        {report.topEarners.length === 0 ? (
          <p className="text-sm text-muted">Nobody earned CUBE in this period.</p>
        ) : (
          <ol className="list-decimal space-y-1 pl-6 text-sm" data-testid="economy-top-earners">
            {report.topEarners.map((e) => (
              <li key={e.username}>
                <span className="font-semibold">{e.username}</span> {e.earned} CUBE · {e.listens} rewarded listens
                {e.creator > 0 ? ` · ${e.creator} CUBE as a creator` : ''}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="economy-held">
        <h3 id="economy-held" className="mb-2 font-semibold">
          Held back by the trust rule
        </h3>
        <p className="text-sm text-muted" data-testid="economy-held-back">
          {report.heldBack.accounts} {report.heldBack.accounts === 1 ? 'account has' : 'accounts have'} {report.heldBack.locked} CUBE locked
          (no voting power, no delegating, no claiming) until they are trusted: 48 hours old, listened on {report.heldBack.neededDays}{' '}
          different days to {report.heldBack.neededSongs} different songs, and not one of a ring of new accounts on one address.
        </p>
        {report.heldBack.closest.length > 0 && (
          <ul className="mt-2 space-y-1 text-sm" aria-label="Closest to unlocking">
            {report.heldBack.closest.map((a) => (
              <li key={a.username}>
                <span className="font-semibold">{a.username}</span> {a.listeningDays}/{report.heldBack.neededDays} days · {a.distinctSongs}/
                {report.heldBack.neededSongs} songs · {a.locked} CUBE locked
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="economy-rules">
        <h3 id="economy-rules" className="mb-2 font-semibold">
          Listens that reached the qualifying time
        </h3>
        <ul className="space-y-1 text-sm" data-testid="economy-listen-outcomes">
          {Object.entries(report.listenOutcomes).map(([outcome, count]) => (
            <li key={outcome}>
              {OUTCOME_LABEL[outcome] ?? outcome}: <span className="font-semibold">{count}</span>
            </li>
          ))}
          {Object.keys(report.listenOutcomes).length === 0 && <li className="text-muted">None in this period.</li>}
        </ul>
      </section>
    </>
  )
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-md border border-line p-3">
      <dt className="text-xs uppercase tracking-widest text-muted">{label}</dt>
      <dd className="font-display text-xl font-bold text-primary" data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}
