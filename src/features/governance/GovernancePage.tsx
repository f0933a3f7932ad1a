import { useEffect, useState, type FormEvent } from 'react'
import type { GovernanceOverview, GovernanceRules, ProposalRow } from '../../backend/governance.ts'
import { notify } from '../../lib/notify.ts'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { CATEGORY_LABELS, governanceError, resultLabel } from './governance-text.ts'
import { FALLBACK_RULES, useGovernance } from './useGovernance.ts'
import { maturityLine, powerLine, quorumLine } from './proposal-power.ts'

type Tab = 'active' | 'create' | 'history'
const TABS = [
  { key: 'active', label: 'Active Proposals' },
  { key: 'create', label: 'Create Proposal' },
  { key: 'history', label: 'Your Voting History' },
] as const

function Stat({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <div className="panel p-4">
      <dt className="text-xs uppercase tracking-widest text-muted">{label}</dt>
      <dd className="mt-1 font-display text-2xl font-bold text-fg" data-testid={testId}>
        {value}
      </dd>
      {note && <dd className="mt-1 text-xs text-muted">{note}</dd>}
    </div>
  )
}

const VOTE_BUTTON = 'rounded border px-3 py-1 text-sm font-semibold disabled:opacity-50'

export function ProposalCard({
  p,
  voted,
  voting = false,
  canVote,
  onVote,
  powerNote,
  quorumNote,
}: {
  p: ProposalRow
  /** The user's snapshot power on this proposal, in words. */
  powerNote?: string
  /** The quorum as a share of the snapshot, in words. */
  quorumNote?: string
  voted: 'for' | 'against' | undefined
  /** The vote is on its way: the buttons wait. */
  voting?: boolean
  canVote: boolean
  onVote: (choice: 'for' | 'against') => void
}) {
  const total = p.votes_for + p.votes_against
  const forPct = total ? Math.round((100 * p.votes_for) / total) : 0
  return (
    <li className="panel space-y-2 p-4" data-testid="proposal" data-proposal-id={p.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-fg">{p.title}</h3>
        <span className="rounded-full border border-secondary/60 px-2 py-0.5 text-xs text-secondary">
          {CATEGORY_LABELS[p.category] ?? p.category}
        </span>
      </div>
      <p className="whitespace-pre-wrap break-words text-sm text-muted">{p.description}</p>
      <div className="flex justify-between text-sm">
        <span>
          For <strong data-testid="votes-for">{p.votes_for}</strong>
        </span>
        <span>
          Against <strong data-testid="votes-against">{p.votes_against}</strong>
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${p.title}: share of votes for`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={forPct}
        className="h-2 overflow-hidden rounded-full bg-red-500/40"
      >
        <div className="h-full bg-green-500" style={{ width: `${total ? forPct : 0}%` }} />
      </div>
      <p className="text-xs text-muted">
        By {p.author_name} · {p.voter_count} voter{p.voter_count === 1 ? '' : 's'} · ends{' '}
        <time dateTime={p.ends_at}>{new Date(p.ends_at).toLocaleString('en-US')}</time>
      </p>
      {quorumNote && (
        <p className="text-xs text-muted" data-testid="proposal-quorum">
          {quorumNote}
        </p>
      )}
      {powerNote && (
        <p className="text-sm text-fg/90" data-testid="proposal-power">
          {powerNote}
        </p>
      )}
      {voted ? (
        <p className="text-sm text-accent" data-testid="your-vote">
          You voted {voted === 'for' ? 'For' : 'Against'}
        </p>
      ) : canVote ? (
        <div className="flex gap-2" aria-busy={voting}>
          <button
            type="button"
            onClick={() => onVote('for')}
            disabled={voting}
            className={`${VOTE_BUTTON} border-green-500/70 text-green-400 hover:bg-green-500/10`}
          >
            For
          </button>
          <button
            type="button"
            onClick={() => onVote('against')}
            disabled={voting}
            className={`${VOTE_BUTTON} border-red-500/70 text-red-400 hover:bg-red-500/10`}
          >
            Against
          </button>
        </div>
      ) : null}
    </li>
  )
}

function CreateForm({
  rules,
  balance,
  propose,
  onCreated,
}: {
  rules: GovernanceRules
  balance: number | undefined
  propose: (title: string, description: string, category: string, days: number, attemptKey: string) => Promise<boolean>
  onCreated: () => void
}) {
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [category, setCategory] = useState('')
  const [days, setDays] = useState(7)
  const [submitting, setSubmitting] = useState(false)
  // One key per proposal attempt: a double submit or a retry burns once (create_proposal's key).
  const [attemptKey, setAttemptKey] = useState(() => crypto.randomUUID())
  const low = balance === undefined || balance < rules.min_balance
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (submitting) return
    if (low)
      return notify.error('Insufficient CUBE balance', { description: `You need at least ${rules.min_balance} CUBE to create a proposal` })
    if (!title.trim() || !description.trim() || !category)
      return notify.error('Incomplete proposal', { description: 'Please fill out all fields' })
    setSubmitting(true)
    const created = await propose(title, description, category, days, attemptKey)
    setSubmitting(false)
    if (!created) return
    setAttemptKey(crypto.randomUUID())
    setTitle('')
    setDescription('')
    setCategory('')
    onCreated()
  }
  const field = 'w-full rounded-md border border-line bg-bg/70 p-2 text-sm text-fg'
  return (
    <form onSubmit={submit} className="panel space-y-3 p-4" data-testid="proposal-form">
      <p className="text-sm text-muted">
        Creating a proposal burns {rules.proposal_cost} CUBE (you need at least {rules.min_balance}). Voting power on it is taken from every
        account&apos;s balance and listening days at the moment you create it. It runs at least {rules.min_duration_hours} hours and passes
        when For beats Against and at least {Math.round(rules.quorum_share * 100)}% of that snapshot&apos;s voting power took part.
      </p>
      <label className="block text-sm">
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={rules.max_title} className={field} />
      </label>
      <label className="block text-sm">
        Description
        <textarea
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={rules.max_description}
          rows={4}
          className={field}
        />
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          Category
          <select value={category} onChange={(e) => setCategory(e.target.value)} className={field}>
            <option value="">Choose a category</option>
            {rules.categories.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c] ?? c}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          Duration
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} className={field}>
            {Array.from({ length: rules.max_duration_days - rules.min_duration_days + 1 }, (_, i) => i + rules.min_duration_days).map(
              (d) => (
                <option key={d} value={d}>
                  {d} day{d === 1 ? '' : 's'}
                </option>
              ),
            )}
          </select>
        </label>
      </div>
      {low && balance !== undefined && (
        <p role="status" className="text-sm text-red-400">
          Insufficient CUBE balance: you need at least {rules.min_balance} CUBE to create a proposal.
        </p>
      )}
      <button
        type="submit"
        disabled={submitting || low}
        className="rounded bg-primary/20 px-4 py-2 font-semibold text-primary hover:bg-primary/30 disabled:opacity-50"
      >
        {submitting ? 'Submitting…' : 'Submit Proposal'}
      </button>
    </form>
  )
}

function DelegatePanel({
  overview,
  delegate,
  undelegate,
}: {
  overview: GovernanceOverview
  delegate: (to: string | null) => Promise<void>
  undelegate: () => Promise<void>
}) {
  const [username, setUsername] = useState('')
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<void>, done: string) => {
    setBusy(true)
    try {
      await action()
      notify.success(done)
      setUsername('')
    } catch (error) {
      notify.error('Delegation not changed', { description: governanceError(error, FALLBACK_RULES)[1] })
    } finally {
      setBusy(false)
    }
  }
  const d = overview.delegation
  return (
    <section className="panel space-y-3 p-4" data-testid="delegate-panel" aria-labelledby="delegate-title">
      <h2 id="delegate-title" className="font-display text-lg font-bold text-primary">
        Delegate your voting power
      </h2>
      <p className="text-sm" data-testid="current-delegation">
        Current delegation: <strong>{d ? (d.delegate_id ? d.delegate_name : 'Community Pool') : 'None'}</strong>
        {overview.delegated_power > 0 && <span className="text-muted"> · {overview.delegated_power} power delegated to you</span>}
      </p>
      <p className="text-xs text-muted">
        While you delegate you cannot vote yourself; your delegate votes with your power (the Community Pool abstains). A change counts from
        the next proposal: proposals already open keep the power they took when they were created.
      </p>
      <div data-testid="delegators">
        <h3 className="text-sm font-semibold text-fg">Delegating to you</h3>
        {overview.delegators.length === 0 ? (
          <p className="text-sm text-muted">Nobody delegates to you.</p>
        ) : (
          <ul className="text-sm" aria-label="Delegating to you">
            {overview.delegators.map((x) => (
              <li key={x.username}>
                {x.username} <span className="text-muted">· {x.power} power</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          if (username.trim()) void run(() => delegate(username.trim()), `Delegated to ${username.trim()}`)
        }}
      >
        <label className="sr-only" htmlFor="delegate-username">
          Username
        </label>
        <input
          id="delegate-username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          placeholder="Username"
          // A basis of its own: flex-wrap moves the buttons to the next line instead of shrinking the field to nothing at 375 px.
          className="min-w-0 flex-1 basis-44 rounded-md border border-line bg-bg/70 p-2 text-sm text-fg"
        />
        <button
          type="submit"
          disabled={busy || !username.trim()}
          className="rounded border border-primary/60 px-3 py-1 text-sm text-primary disabled:opacity-50"
        >
          Delegate
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => void run(() => delegate(null), 'Delegated to the Community Pool')}
          className="rounded border border-secondary/60 px-3 py-1 text-sm text-secondary disabled:opacity-50"
        >
          Community Pool
        </button>
        {d && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(undelegate, 'Undelegated')}
            className="rounded border border-line px-3 py-1 text-sm text-muted disabled:opacity-50"
          >
            Undelegate
          </button>
        )}
      </form>
    </section>
  )
}

export default function GovernancePage() {
  const { userId, rules, proposals, overview, voted, voting, history, powerOn, vote, propose, delegate, undelegate } = useGovernance()
  const openAuth = useAuthModalStore((s) => s.open)
  const [tab, setTab] = useState<Tab>('active')
  useEffect(() => {
    document.title = 'Governance · CUBE Music'
  }, [])

  const active = (proposals ?? []).filter((p) => p.status === 'active')
  const balance = overview?.balance
  // Signed out there is nothing to wait for: a dash, not a spinner.
  const pending = userId ? '…' : '—'
  return (
    <section className="mx-auto max-w-5xl space-y-6 p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Governance</h1>
        <p className="mt-1 text-muted">
          Vote on proposals with {Math.round(rules.power_fraction * 100)}% of your unlocked CUBE balance (rounded down) at the moment each
          proposal was created, weighted by your listening (full weight once you have listened on {rules.full_power_days} different days in
          the last {rules.power_window_days}, a {rules.full_power_days}th for each day before), plus what others had delegated to you by
          then.
        </p>
      </header>
      {!userId && (
        <p className="text-sm text-muted">
          <button type="button" className="text-primary underline" onClick={() => openAuth('login')}>
            Sign in
          </button>{' '}
          to vote, delegate and create proposals.
        </p>
      )}
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Stat label="Balance" value={balance === undefined ? pending : `${balance} CUBE`} testId="gov-balance" />
        <Stat
          label="Voting Power"
          value={overview ? String(overview.voting_power) : pending}
          testId="gov-voting-power"
          note={
            overview
              ? `${overview.own_power} own + ${overview.delegated_power} delegated, for the next proposal` +
                (overview.locked > 0 ? ` · ${overview.locked} CUBE locked until your account is trusted` : '')
              : undefined
          }
        />
        <Stat label="Active Proposals" value={proposals ? String(active.length) : '…'} testId="gov-active-count" />
        <Stat
          label="Participation"
          value={overview && proposals ? `${active.filter((p) => voted.has(p.id)).length}/${active.length}` : pending}
          testId="gov-participation"
        />
      </dl>
      {overview && maturityLine(overview, rules) && (
        <p className="text-sm text-muted" data-testid="gov-power-maturity">
          {maturityLine(overview, rules)}
        </p>
      )}
      {overview && <DelegatePanel overview={overview} delegate={delegate} undelegate={undelegate} />}
      <SimpleTabs tabs={TABS} value={tab} onChange={setTab} label="Governance" idPrefix="gov" />
      <div role="tabpanel" id={`gov-panel-${tab}`} aria-labelledby={`gov-tab-${tab}`}>
        {tab === 'active' &&
          (proposals === null ? (
            <p className="text-sm text-muted">Loading proposals…</p>
          ) : active.length === 0 ? (
            <p className="text-sm text-muted">No active proposals. Create one.</p>
          ) : (
            <ul className="space-y-3" aria-label="Active proposals">
              {active.map((p) => (
                <ProposalCard
                  key={p.id}
                  p={p}
                  voted={voted.get(p.id)}
                  voting={voting.has(p.id)}
                  canVote={!!userId}
                  onVote={(c) => void vote(p.id, c)}
                  quorumNote={quorumLine(p, rules)}
                  powerNote={userId ? powerLine(powerOn(p.id).row, powerOn(p.id).known, rules) : undefined}
                />
              ))}
            </ul>
          ))}
        {tab === 'create' &&
          (userId ? (
            <CreateForm rules={rules} balance={balance} propose={propose} onCreated={() => setTab('active')} />
          ) : (
            <p className="text-sm text-muted">Sign in to create a proposal.</p>
          ))}
        {tab === 'history' &&
          (history.length === 0 ? (
            <p className="text-sm text-muted">You have not voted yet.</p>
          ) : (
            <table className="w-full text-left text-sm" data-testid="vote-history">
              <thead className="text-xs uppercase tracking-widest text-muted">
                <tr>
                  <th className="py-2">Proposal</th>
                  <th>Vote</th>
                  <th>Date</th>
                  <th>Power</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {history.map((h) => (
                  <tr key={h.proposal_id} className="border-t border-line/60">
                    <td className="py-2">{h.title}</td>
                    <td>{h.choice === 'for' ? 'For' : 'Against'}</td>
                    <td>{new Date(h.voted_at).toLocaleDateString('en-US')}</td>
                    <td>{h.power}</td>
                    <td data-testid="vote-result">{resultLabel(h.status)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </div>
    </section>
  )
}
