import { describe, expect, it } from 'vitest'
import type { ProposalRow } from '../../backend/governance.ts'
import { mergeProposal } from './proposal-list.ts'
import { resultLabel } from './governance-text.ts'

const p = (id: string, at: string, votes_for = 0): ProposalRow => ({
  id,
  author_id: 'a',
  author_name: 'a',
  title: id,
  description: 'd',
  category: 'other',
  status: 'active',
  votes_for,
  votes_against: 0,
  voter_count: 0,
  created_at: at,
  ends_at: at,
  closed_at: null,
  snapshot_power: 0,
  quorum_power: 1,
})

describe('mergeProposal', () => {
  it('keeps one row per proposal, newest first, with the latest tallies', () => {
    let list = mergeProposal([], p('a', '2026-01-01'))
    list = mergeProposal(list, p('b', '2026-01-02'))
    list = mergeProposal(list, p('a', '2026-01-01', 200))
    expect(list.map((r) => [r.id, r.votes_for])).toEqual([
      ['b', 0],
      ['a', 200],
    ])
  })
  it('names results as the history shows them', () => {
    expect(['active', 'passed', 'rejected'].map((s) => resultLabel(s as ProposalRow['status']))).toEqual([
      'In Progress',
      'Passed',
      'Rejected',
    ])
  })
})
