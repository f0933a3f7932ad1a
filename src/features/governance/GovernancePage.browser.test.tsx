import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import type { ProposalPower, ProposalRow } from '../../backend/governance.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import GovernancePage from './GovernancePage.tsx'

// The economy's rules where they bite on the governance page: the proposal's snapshot power and quorum in
// words, who delegates to you, and a vote while the account was not trusted explained without a request.

const row = (id: string, title: string): ProposalRow => ({
  id,
  author_id: 'a',
  author_name: 'ada',
  title,
  description: 'd',
  category: 'tokenomics',
  status: 'active',
  votes_for: 120,
  votes_against: 0,
  voter_count: 1,
  created_at: '2026-11-25T00:00:00Z',
  ends_at: '2099-01-01T00:00:00Z',
  closed_at: null,
  snapshot_power: 2400,
  quorum_power: 240,
})
const power = (id: string, over: Partial<ProposalPower>): ProposalPower => ({
  proposal_id: id,
  balance: 250,
  locked: 0,
  own_power: 200,
  delegated_power: 80,
  delegated: false,
  voting_power: 280,
  power_days: 30,
  ...over,
})
/** The listening days the overview reports (30: full weight; fewer: the page says how far from it). */
let powerDays = 30
const ownNow = () => Math.floor((200 * Math.min(powerDays, 30)) / 30)

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))
const governanceFakes = {
  castVote: vi.fn(),
  createProposal: vi.fn(),
  delegateVotingPower: vi.fn(),
  undelegateVotingPower: vi.fn(),
  fetchGovernanceRules: vi.fn(() => new Promise(() => undefined)),
  fetchProposals: vi.fn(async () => [row('p1', 'Mine with delegation'), row('p2', 'Before my unlock'), row('p3', 'Before I joined')]),
  subscribeProposals: vi.fn(() => () => undefined),
  fetchGovernanceOverview: vi.fn(async () => ({
    balance: 250,
    locked: 0,
    trusted: true,
    own_power: ownNow(),
    power_days: powerDays,
    delegated_power: 80,
    voting_power: ownNow() + 80,
    delegation: null,
    delegators: [{ username: 'kai', power: 80, since: '2026-11-20T00:00:00Z' }],
    active_count: 3,
    voted_active: 0,
  })),
  fetchMyVotedIds: vi.fn(async () => new Map()),
  fetchMyVotes: vi.fn(async () => []),
  fetchMyProposalPower: vi.fn(
    async () =>
      new Map([
        ['p1', power('p1', {})],
        ['p2', power('p2', { locked: 100, own_power: 0, delegated_power: 0, voting_power: 0 })],
        ...(powerDays < 30 ? ([['p3', power('p3', { own_power: 26, delegated_power: 0, voting_power: 26, power_days: 4 })]] as const) : []),
      ]),
  ),
}
const { castVote } = governanceFakes
const server = fakeBackend({ governance: governanceFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const card = (el: HTMLElement, id: string) => el.querySelector<HTMLElement>(`[data-proposal-id="${id}"]`)

beforeEach(() => {
  vi.clearAllMocks()
  powerDays = 30
  useSessionStore.setState({ user: { id: 'me' } as never })
})

describe('governance page: snapshot power, quorum and delegators in words', () => {
  it('each proposal says the power the user has on it and the quorum as a share of its snapshot', async () => {
    const el = render(<GovernancePage />)
    await expect
      .poll(() => card(el, 'p1')?.querySelector('[data-testid="proposal-power"]')?.textContent)
      .toBe('Your voting power on this proposal: 280 (200 from your balance when it was created + 80 delegated).')
    expect(card(el, 'p1')!.querySelector('[data-testid="proposal-quorum"]')!.textContent).toBe(
      'Quorum: 10% of the 2400 voting power snapshotted at creation = 240 · taken part: 120',
    )
    expect(card(el, 'p2')!.querySelector('[data-testid="proposal-power"]')!.textContent).toBe(
      'No voting power on this proposal: your account was not trusted yet when it was created.',
    )
    // Read once the proposal was listed: no row then means the account did not exist when it was created.
    await expect
      .poll(() => card(el, 'p3')!.querySelector('[data-testid="proposal-power"]')!.textContent)
      .toBe('You have no voting power on this proposal: your account did not exist yet when it was created.')
    expect(el.querySelector('[data-testid="delegators"]')!.textContent).toContain('kai · 80 power')
  })

  it('a listener short of full weight is told how their CUBE are weighted, on the next proposal and on each snapshot', async () => {
    powerDays = 4
    const el = render(<GovernancePage />)
    await expect
      .poll(() => el.querySelector('[data-testid="gov-power-maturity"]')?.textContent)
      .toBe(
        'Your CUBE vote 4/30 of their weight: voting power grows with each day you listen and is full once you have listened on 30 ' +
          'different days in the last 180.',
      )
    expect(el.querySelector('[data-testid="gov-voting-power"]')!.textContent).toBe('106')
    await expect
      .poll(() => card(el, 'p3')?.querySelector('[data-testid="proposal-power"]')?.textContent)
      .toBe('Your voting power on this proposal: 26 (from your balance when it was created, weighted by 4 of 30 listening days).')
    // At full weight nothing is said about it.
    expect(card(el, 'p1')!.querySelector('[data-testid="proposal-power"]')!.textContent).toBe(
      'Your voting power on this proposal: 280 (200 from your balance when it was created + 80 delegated).',
    )
  })

  it('an established listener sees no weighting note', async () => {
    const el = render(<GovernancePage />)
    await expect.poll(() => el.querySelector('[data-testid="gov-voting-power"]')?.textContent).toBe('280')
    expect(el.querySelector('[data-testid="gov-power-maturity"]')).toBeNull()
  })

  it('a vote where the snapshot found the account not trusted is explained and not sent', async () => {
    const el = render(<GovernancePage />)
    await expect.poll(() => card(el, 'p2')?.querySelector('[data-testid="proposal-power"]')?.textContent).toMatch(/not trusted yet/)
    const forButton = [...card(el, 'p2')!.querySelectorAll('button')].find((b) => b.textContent === 'For')!
    await settle(() => userEvent.click(forButton))
    expect(castVote).not.toHaveBeenCalled()
    expect(notify.error).toHaveBeenCalledWith('Insufficient voting power', {
      description: 'No voting power on this proposal: your account was not trusted yet when it was created.',
    })
  })
})
