import type { GovernanceRules, ProposalPower, ProposalRow } from '../../backend/governance.ts'

/**
 * The user's voting power on one proposal, in words: it comes from the snapshot taken when the
 * proposal was created (supabase/schemas/governance.sql), not from today's balance.
 */
export function powerLine(power: ProposalPower | undefined, known: boolean): string {
  if (!known) return 'Your voting power on this proposal: …'
  if (!power) return 'You have no voting power on this proposal: your account did not exist yet when it was created.'
  if (power.delegated) return 'Your voting power on this proposal went to your delegate when it was created.'
  const from =
    power.delegated_power > 0 ? `${power.own_power} from your balance when it was created + ${power.delegated_power} delegated` : ''
  if (power.voting_power > 0)
    return `Your voting power on this proposal: ${power.voting_power} (${from || 'from your balance when it was created'}).`
  if (power.locked > 0) return 'No voting power on this proposal: your account was not trusted yet when it was created.'
  return 'No voting power on this proposal: you had no unlocked CUBE when it was created.'
}

/** Quorum as a share of the snapshot's total power, and how much has taken part. */
export function quorumLine(p: ProposalRow, rules: GovernanceRules): string {
  const share = Math.round(rules.quorum_share * 100)
  const cast = p.votes_for + p.votes_against
  return (
    `Quorum: ${share}% of the ${p.snapshot_power} voting power snapshotted at creation = ${p.quorum_power}` +
    ` · taken part: ${cast}${cast >= p.quorum_power ? ' (reached)' : ''}`
  )
}
