import { describe, expect, it } from 'vitest'
import type { ProposalPower, ProposalRow } from '../../backend/governance.ts'
import { powerLine, quorumLine } from './proposal-power.ts'
import { FALLBACK_RULES } from './governance-text.ts'

const power = (over: Partial<ProposalPower> = {}): ProposalPower => ({
  proposal_id: 'p',
  balance: 250,
  locked: 0,
  own_power: 200,
  delegated_power: 0,
  delegated: false,
  voting_power: 200,
  ...over,
})

describe('powerLine: the snapshot power in words', () => {
  it('says where the power comes from', () => {
    expect(powerLine(power(), true)).toBe('Your voting power on this proposal: 200 (from your balance when it was created).')
    expect(powerLine(power({ delegated_power: 80, voting_power: 280 }), true)).toBe(
      'Your voting power on this proposal: 280 (200 from your balance when it was created + 80 delegated).',
    )
  })
  it('explains each kind of none: created after, delegated, not trusted yet, no CUBE', () => {
    expect(powerLine(undefined, true)).toMatch(/did not exist yet when it was created/)
    expect(powerLine(power({ delegated: true, voting_power: 0 }), true)).toMatch(/went to your delegate/)
    expect(powerLine(power({ locked: 100, own_power: 0, voting_power: 0 }), true)).toMatch(
      /your account was not trusted yet when it was created/,
    )
    expect(powerLine(power({ own_power: 0, voting_power: 0 }), true)).toMatch(/no unlocked CUBE/)
    expect(powerLine(undefined, false)).toBe('Your voting power on this proposal: …')
  })
})

describe('quorumLine', () => {
  const p = { votes_for: 300, votes_against: 50, snapshot_power: 4000, quorum_power: 400 } as ProposalRow
  it('shows the quorum as a share of the snapshot and whether it is reached', () => {
    expect(quorumLine(p, FALLBACK_RULES)).toBe('Quorum: 10% of the 4000 voting power snapshotted at creation = 400 · taken part: 350')
    expect(quorumLine({ ...p, votes_for: 350 }, FALLBACK_RULES)).toMatch(/taken part: 400 \(reached\)$/)
  })
})
