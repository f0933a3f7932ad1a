import type { GovernanceRules, ProposalStatus } from '../../backend/governance.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** What the server's governance_rules() says; shown before it answers (same figures). */
export const FALLBACK_RULES: GovernanceRules = {
  proposal_cost: 100,
  min_balance: 100,
  power_fraction: 0.8,
  full_power_days: 30,
  power_window_days: 180,
  quorum_share: 0.1,
  min_duration_hours: 24,
  min_duration_days: 1,
  max_duration_days: 14,
  categories: ['platform', 'tokenomics', 'features', 'community', 'other'],
  max_title: 120,
  max_description: 4000,
}

export const CATEGORY_LABELS: Readonly<Record<string, string>> = {
  platform: 'Platform Features',
  tokenomics: 'Tokenomics',
  features: 'User Features',
  community: 'Community',
  other: 'Other',
}

export const resultLabel = (status: ProposalStatus): string =>
  status === 'active' ? 'In Progress' : status === 'passed' ? 'Passed' : 'Rejected'

/** [title, description] for the server's refusal codes. */
export function governanceError(error: unknown, rules: GovernanceRules): [string, string] {
  const code = errorMessage(error)
  const details =
    typeof error === 'object' && error !== null && 'details' in error && typeof error.details === 'string' ? error.details : ''
  switch (code) {
    case 'insufficient_balance':
      return ['Insufficient CUBE balance', `You need at least ${rules.min_balance} CUBE to create a proposal`]
    case 'incomplete_proposal':
      return ['Incomplete proposal', 'Please fill out all fields']
    case 'insufficient_voting_power':
      return ['Insufficient voting power', details || 'You need CUBE tokens to participate in governance']
    case 'no_power':
      return ['No voting power on this proposal', details || 'Your account did not exist yet when this proposal was created.']
    case 'not_trusted':
      return ['Nothing to delegate yet', details || 'Your CUBE carry no voting power until your account is trusted.']
    case 'linked_account':
      return ['Not possible', details || 'You cannot delegate to an account used from the same address as yours.']
    case 'already_voted':
    case 'proposal_closed':
    case 'delegated':
    case 'power_already_used':
    case 'end_date_in_past':
    case 'invalid_duration':
    case 'unknown_user':
    case 'self_delegation':
      return ['Not possible', details || code]
    default:
      return ['Something went wrong', details || code]
  }
}
