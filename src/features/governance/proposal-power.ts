import type { GovernanceOverview, GovernanceRules, ProposalPower, ProposalRow } from '../../backend/governance.ts'

/** "weighted by 4 of 30 listening days", or '' at full weight and in snapshots taken before the rule (null). */
export function weightNote(days: number | null | undefined, rules: Pick<GovernanceRules, 'full_power_days'>): string {
  if (days === null || days === undefined || days >= rules.full_power_days) return ''
  return `weighted by ${days} of ${rules.full_power_days} listening days`
}

/**
 * The user's voting power on one proposal, in words: it comes from the snapshot taken when the
 * proposal was created (supabase/schemas/governance.sql), not from today's balance, and is weighted
 * by the listening days the snapshot found.
 */
export function powerLine(power: ProposalPower | undefined, known: boolean, rules: Pick<GovernanceRules, 'full_power_days'>): string {
  if (!known) return 'Your voting power on this proposal: …'
  if (!power) return 'You have no voting power on this proposal: your account did not exist yet when it was created.'
  if (power.delegated) return 'Your voting power on this proposal went to your delegate when it was created.'
  const weight = weightNote(power.power_days, rules)
  const own = `from your balance when it was created${weight ? `, ${weight}` : ''}`
  const from = power.delegated_power > 0 ? `${power.own_power} ${own} + ${power.delegated_power} delegated` : own
  if (power.voting_power > 0) return `Your voting power on this proposal: ${power.voting_power} (${from}).`
  if (power.locked > 0) return 'No voting power on this proposal: your account was not trusted yet when it was created.'
  if (power.balance > 0 && weight)
    return `No voting power on this proposal: your unlocked CUBE, ${weight}, came to less than one vote when it was created.`
  return 'No voting power on this proposal: you had no unlocked CUBE when it was created.'
}

/** How the next proposal's own power is weighted, in words ('' at full weight). */
export function maturityLine(
  overview: Pick<GovernanceOverview, 'trusted' | 'power_days'>,
  rules: Pick<GovernanceRules, 'full_power_days' | 'power_window_days'>,
): string {
  if (!overview.trusted || overview.power_days >= rules.full_power_days) return ''
  return (
    `Your CUBE vote ${overview.power_days}/${rules.full_power_days} of their weight: voting power grows with each day you listen ` +
    `and is full once you have listened on ${rules.full_power_days} different days in the last ${rules.power_window_days}.`
  )
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
