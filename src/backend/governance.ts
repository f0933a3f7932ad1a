import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js'
import { supabase } from './client.ts'
import { rpcJson } from './rpc.ts'

/** SQL public.governance_rules() (supabase/schemas/governance.sql): the one source. */
export interface GovernanceRules {
  proposal_cost: number
  min_balance: number
  power_fraction: number
  /** Voting power matures: own power is weighted by min(listening days, full_power_days) / full_power_days. */
  full_power_days: number
  /** Listening days count within this many days before the snapshot. */
  power_window_days: number
  /** Quorum: this share of the proposal's total snapshot voting power must take part. */
  quorum_share: number
  min_duration_hours: number
  min_duration_days: number
  max_duration_days: number
  categories: string[]
  max_title: number
  max_description: number
}

export type ProposalStatus = 'active' | 'passed' | 'rejected'

export interface ProposalRow {
  id: string
  author_id: string
  author_name: string
  title: string
  description: string
  category: string
  status: ProposalStatus
  votes_for: number
  votes_against: number
  voter_count: number
  created_at: string
  ends_at: string
  closed_at: string | null
  /** Total voting power of the snapshot taken when the proposal was created. */
  snapshot_power: number
  /** Power that must take part for the proposal to pass (quorum_share of snapshot_power, rounded up). */
  quorum_power: number
}

/** The caller's row of a proposal's snapshot (public.proposal_power, readable by its own account only). */
export interface ProposalPower {
  proposal_id: string
  balance: number
  locked: number
  own_power: number
  delegated_power: number
  delegated: boolean
  voting_power: number
  /** The listening days own_power was weighted with; null in snapshots taken before the rule. */
  power_days: number | null
}

export interface GovernanceOverview {
  balance: number
  /** Welcome tokens without voting power until the account is trusted (supabase/schemas/trust.sql). */
  locked: number
  trusted: boolean
  own_power: number
  /** Distinct days with credited listens in the window, at most full_power_days: own_power's weight now. */
  power_days: number
  delegated_power: number
  voting_power: number
  delegation: { delegate_id: string | null; delegate_name: string | null; since: string } | null
  /** Who delegates to the caller now, with the power each would bring to the next proposal. */
  delegators: { username: string; power: number; since: string }[]
  active_count: number
  voted_active: number
}

export interface VoteHistoryRow {
  proposal_id: string
  title: string
  choice: 'for' | 'against'
  power: number
  voted_at: string
  status: ProposalStatus
  ends_at: string
}

const call = rpcJson

const proposal = (row: Record<string, unknown>): ProposalRow => ({
  ...(row as unknown as ProposalRow),
  votes_for: Number(row.votes_for),
  votes_against: Number(row.votes_against),
  snapshot_power: Number(row.snapshot_power ?? 0),
  quorum_power: Number(row.quorum_power ?? 0),
})

export const fetchGovernanceRules = () => call<GovernanceRules>('governance_rules')
/** All proposals, newest first, after the server closed those past their end (close-on-read). */
export const fetchProposals = async () => (await call<Record<string, unknown>[]>('governance_proposals')).map(proposal)
export const fetchGovernanceOverview = () => call<GovernanceOverview>('governance_overview')
export const fetchMyVotes = async () => (await call<VoteHistoryRow[]>('my_votes')).map((v) => ({ ...v, power: Number(v.power) }))
export async function fetchMyVotedIds(userId: string): Promise<Map<string, 'for' | 'against'>> {
  const { data, error } = await supabase().from('votes').select('proposal_id, choice').eq('user_id', userId)
  if (error) throw error
  return new Map((data as { proposal_id: string; choice: 'for' | 'against' }[]).map((v) => [v.proposal_id, v.choice]))
}

/** The caller's voting power on each proposal, from the snapshots taken when they were created. */
export async function fetchMyProposalPower(userId: string): Promise<Map<string, ProposalPower>> {
  const { data, error } = await supabase()
    .from('proposal_power')
    .select('proposal_id, balance, locked, own_power, delegated_power, delegated, voting_power, power_days')
    .eq('user_id', userId)
  if (error) throw error
  return new Map(
    (data as Record<string, unknown>[]).map((r) => [
      String(r.proposal_id),
      {
        proposal_id: String(r.proposal_id),
        balance: Number(r.balance),
        locked: Number(r.locked),
        own_power: Number(r.own_power),
        delegated_power: Number(r.delegated_power),
        delegated: Boolean(r.delegated),
        voting_power: Number(r.voting_power),
        power_days: r.power_days === null || r.power_days === undefined ? null : Number(r.power_days),
      },
    ]),
  )
}

/** attemptKey: one per proposal form attempt; the server creates (and burns) once per key. */
export const createProposal = async (title: string, description: string, category: string, endsAt: Date, attemptKey: string) => {
  const answer = await call<{ proposal: Record<string, unknown>; balance: number }>('create_proposal', {
    p_title: title,
    p_description: description,
    p_category: category,
    p_ends_at: endsAt.toISOString(),
    p_attempt_key: attemptKey,
  })
  return { proposal: proposal(answer.proposal), balance: answer.balance }
}
export const castVote = async (proposalId: string, choice: 'for' | 'against') => {
  const answer = await call<{ vote: { power: number }; proposal: Record<string, unknown> }>('cast_vote', {
    p_proposal_id: proposalId,
    p_choice: choice,
  })
  return { power: Number(answer.vote.power), proposal: proposal(answer.proposal) }
}
/** To a user by username, or with null to the community pool. */
export const delegateVotingPower = (username: string | null) =>
  call<GovernanceOverview>('delegate_voting_power', username ? { p_username: username } : {})
export const undelegateVotingPower = () => call<GovernanceOverview>('undelegate_voting_power')

/** Live proposals (new ones and tally or status changes) for everyone viewing; `onStatus` gets the channel's status. */
export function subscribeProposals(onRow: (row: ProposalRow) => void, onStatus?: (status: string) => void): () => void {
  const client = supabase()
  const channel = client
    .channel(`proposals:${Math.random().toString(36).slice(2)}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'proposals' },
      (p: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
        if (p.eventType !== 'DELETE') onRow(proposal(p.new))
      },
    )
    .subscribe((status) => onStatus?.(status))
  return () => {
    void client.removeChannel(channel)
  }
}
