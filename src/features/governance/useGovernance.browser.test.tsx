import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import type { ProposalRow } from '../../backend/governance.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { ProposalCard } from './GovernancePage.tsx'
import { useGovernance } from './useGovernance.ts'

// A double click on a vote showed "Vote submitted" and then "already voted".
// With the server mocked and the first vote still on its way, the second click sends nothing.

const PROPOSAL: ProposalRow = {
  id: 'p1',
  author_id: 'a',
  author_name: 'ada',
  title: 'Lower fees',
  description: 'Half the remix cost.',
  category: 'tokenomics',
  status: 'active',
  votes_for: 0,
  votes_against: 0,
  voter_count: 0,
  created_at: '2026-11-25T00:00:00Z',
  ends_at: '2099-01-01T00:00:00Z',
  closed_at: null,
  snapshot_power: 1000,
  quorum_power: 100,
}
let answer: (value: unknown) => void = () => undefined
let voteAnswered = false

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))
const governanceFakes = {
  castVote: vi.fn(() => new Promise((resolve) => (answer = resolve))),
  createProposal: vi.fn(),
  delegateVotingPower: vi.fn(),
  undelegateVotingPower: vi.fn(),
  fetchGovernanceRules: vi.fn(() => new Promise(() => undefined)),
  fetchProposals: vi.fn(async () => [PROPOSAL]),
  subscribeProposals: vi.fn(() => () => undefined),
  fetchGovernanceOverview: vi.fn(async () => ({
    balance: 100,
    own_power: 80,
    delegated_power: 0,
    voting_power: 80,
    locked: 0,
    trusted: true,
    delegation: null,
    delegators: [],
    active_count: 1,
    voted_active: 0,
  })),
  // As the server: the vote is there once it was answered.
  fetchMyVotedIds: vi.fn(async () => new Map(voteAnswered ? [['p1', 'for']] : [])),
  fetchMyVotes: vi.fn(async () => []),
  fetchMyProposalPower: vi.fn(async () => new Map()),
}
const { castVote } = governanceFakes
const server = fakeBackend({ governance: governanceFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

function Harness() {
  const g = useGovernance()
  const p = g.proposals?.[0]
  if (!p || !g.overview) return null
  return <ProposalCard p={p} voted={g.voted.get(p.id)} voting={g.voting.has(p.id)} canVote onVote={(c) => void g.vote(p.id, c)} />
}

beforeEach(() => {
  vi.clearAllMocks()
  useSessionStore.setState({ user: { id: 'me' } as never })
})

describe('voting', () => {
  it('a double click sends one vote, the buttons wait for the answer, and only "Vote submitted" is shown', async () => {
    const el = render(<Harness />)
    await expect.poll(() => el.querySelector('button')?.textContent).toBe('For')
    const forButton = el.querySelector('button')!
    await settle(() => userEvent.dblClick(forButton))
    expect(castVote).toHaveBeenCalledTimes(1)
    expect(forButton.disabled).toBe(true)
    voteAnswered = true
    await settle(() => answer({ power: 80, proposal: { ...PROPOSAL, votes_for: 80, voter_count: 1 } }))
    await expect.poll(() => el.querySelector('[data-testid="your-vote"]')?.textContent).toBe('You voted For')
    expect(notify.success).toHaveBeenCalledTimes(1)
    expect(notify.error).not.toHaveBeenCalled()
  })
})
