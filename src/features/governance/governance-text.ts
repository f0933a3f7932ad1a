import type { GovernanceRules, ProposalStatus } from '../../backend/governance.ts'
import { errorMessage } from '../../lib/error-message.ts'

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
      return ['Insufficient voting power', 'You need CUBE tokens to participate in governance']
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
