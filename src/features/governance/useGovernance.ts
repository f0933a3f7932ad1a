import { useCallback, useEffect, useRef, useState } from 'react'
import type { GovernanceOverview, GovernanceRules, ProposalPower, ProposalRow, VoteHistoryRow } from '../../backend/governance.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { FALLBACK_RULES, governanceError } from './governance-text.ts'

export { FALLBACK_RULES } from './governance-text.ts'
import { mergeProposal } from './proposal-list.ts'
import { powerLine } from './proposal-power.ts'
import { ledgerChanged } from '../../domain/economy/ledger-cache.ts'

const DAY_MS = 86_400_000

/**
 * Governance for the signed-in user (or a visitor): the rules, the proposals kept live through
 * Realtime, the user's power, votes and delegation, and the actions (vote, propose, delegate).
 */
export function useGovernance() {
  const api = useBackend().governance
  const userId = useSessionStore((s) => s.user?.id)
  // The wallet is created (and credited) elsewhere: voting power follows the balance.
  const walletBalance = useSessionStore((s) => s.wallet?.balance)
  const [rules, setRules] = useState<GovernanceRules>(FALLBACK_RULES)
  const [proposals, setProposals] = useState<ProposalRow[] | null>(null)
  const [overview, setOverview] = useState<GovernanceOverview | null>(null)
  const [voted, setVoted] = useState<Map<string, 'for' | 'against'>>(new Map())
  const [voting, setVoting] = useState<ReadonlySet<string>>(new Set())
  const votesInFlight = useRef(new Set<string>())
  const [history, setHistory] = useState<VoteHistoryRow[]>([])
  // The user's power on each proposal, from its snapshot, and the proposals listed when it was read
  // (a proposal seen live since then is not known yet: no row there does not mean no power).
  const [myPower, setMyPower] = useState<{ rows: Map<string, ProposalPower>; listed: ReadonlySet<string> } | null>(null)

  // Bumped after each of the user's actions (and when a proposal closes): the user's figures are read again.
  const [mineVersion, setMineVersion] = useState(0)
  const refreshMine = useCallback(() => setMineVersion((v) => v + 1), [])

  useEffect(() => {
    api.fetchGovernanceRules().then(setRules, () => undefined)
    // Subscribe before reading, so a tally changed in between is not lost.
    let joins = 0
    const unsubscribe = api.subscribeProposals(
      (row) => setProposals((list) => mergeProposal(list ?? [], row)),
      // Joined again after the connection dropped: read what changed meanwhile.
      (status) => {
        if (status === 'SUBSCRIBED' && ++joins > 1)
          api.fetchProposals().then(
            (rows) => setProposals(rows),
            () => undefined,
          )
      },
    )
    api.fetchProposals().then(
      (rows) => setProposals((list) => (list ?? []).reduce(mergeProposal, rows)),
      () => setProposals([]),
    )
    return unsubscribe
  }, [api])
  // A proposal created meanwhile (seen live) has a snapshot row of its own: read the user's figures again.
  const activeIds = (proposals ?? [])
    .filter((p) => p.status === 'active')
    .map((p) => p.id)
    .join(',')
  useEffect(() => {
    if (!userId) return
    let cancelled = false
    const listed = activeIds.split(',')
    Promise.all([api.fetchGovernanceOverview(), api.fetchMyVotedIds(userId), api.fetchMyVotes(), api.fetchMyProposalPower(userId)]).then(
      ([o, v, h, power]) => {
        if (cancelled) return
        setOverview(o)
        setVoted(v)
        setHistory(h)
        setMyPower({ rows: power, listed: new Set(listed) })
      },
      () => undefined,
    )
    return () => {
      cancelled = true
    }
  }, [userId, mineVersion, walletBalance, activeIds, api])

  // When the next active proposal's end passes, read again: the server closes it (close-on-read).
  const nextEnd = (proposals ?? []).filter((p) => p.status === 'active').reduce((m, p) => Math.min(m, Date.parse(p.ends_at)), Infinity)
  useEffect(() => {
    if (!Number.isFinite(nextEnd)) return
    const timer = setTimeout(
      () => {
        api.fetchProposals().then(
          (rows) => setProposals(rows),
          () => undefined,
        )
        refreshMine()
      },
      Math.max(0, Math.min(nextEnd - Date.now() + 1000, 2 ** 31 - 1)),
    )
    return () => clearTimeout(timer)
  }, [nextEnd, refreshMine, api])

  const vote = async (id: string, choice: 'for' | 'against') => {
    // The power is the proposal's snapshot (the server decides; a proposal not read yet goes to the server).
    const mine = myPower?.rows.get(id)
    if (mine && mine.voting_power <= 0) {
      return notify.error('Insufficient voting power', {
        description:
          mine.locked > 0 || mine.delegated || mine.balance > 0
            ? powerLine(mine, true, rules)
            : 'You need CUBE tokens to participate in governance',
      })
    }
    // A double click sends one vote (the second used to come back "already voted").
    if (votesInFlight.current.has(id)) return
    votesInFlight.current.add(id)
    setVoting((v) => new Set(v).add(id))
    try {
      const answer = await api.castVote(id, choice)
      setProposals((list) => mergeProposal(list ?? [], answer.proposal))
      notify.success('Vote submitted', { description: `${answer.power} voting power ${choice === 'for' ? 'for' : 'against'}` })
      setVoted((v) => new Map(v).set(id, choice))
      refreshMine()
    } catch (error) {
      const [t, d] = governanceError(error, rules)
      notify.error(t, { description: d })
    } finally {
      votesInFlight.current.delete(id)
      setVoting((v) => {
        const next = new Set(v)
        next.delete(id)
        return next
      })
    }
  }

  /** Creates a proposal (burning its cost once per attempt key); true when the server took it. */
  const propose = async (title: string, description: string, category: string, days: number, attemptKey: string): Promise<boolean> => {
    try {
      const answer = await api.createProposal(title, description, category, new Date(Date.now() + days * DAY_MS), attemptKey)
      notify.success('Proposal created', { description: `${rules.proposal_cost} CUBE burned` })
      setProposals((list) => mergeProposal(list ?? [], answer.proposal))
      setOverview((o) => (o ? { ...o, balance: answer.balance } : o))
      const session = useSessionStore.getState()
      if (session.wallet) session.setWallet({ ...session.wallet, balance: answer.balance })
      void ledgerChanged(session.user?.id)
      refreshMine()
      return true
    } catch (error) {
      const [t, d] = governanceError(error, rules)
      notify.error(t, { description: d })
      return false
    }
  }

  /** Delegates to a username, or to the Community Pool with null. */
  const delegate = async (to: string | null) => setOverview(await api.delegateVotingPower(to))
  const undelegate = async () => setOverview(await api.undelegateVotingPower())

  /** The user's snapshot power on a proposal: known once read after the proposal was listed; row undefined = none. */
  const powerOn = (id: string): { known: boolean; row: ProposalPower | undefined } => ({
    known: !!myPower && (myPower.listed.has(id) || myPower.rows.has(id)),
    row: myPower?.rows.get(id),
  })

  return { userId, rules, proposals, overview, voted, voting, history, powerOn, vote, propose, delegate, undelegate }
}
