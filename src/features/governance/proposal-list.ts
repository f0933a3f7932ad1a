import type { ProposalRow } from '../../backend/governance.ts'

/** Puts a proposal (a live event or an answer) into the list, newest first, replacing its older state. */
export function mergeProposal(list: readonly ProposalRow[], row: ProposalRow): ProposalRow[] {
  const rest = list.filter((p) => p.id !== row.id)
  return [...rest, row].sort((a, b) => b.created_at.localeCompare(a.created_at))
}
