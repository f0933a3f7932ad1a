import { describe, expect, it } from 'vitest'
import type { ProposalPower, ProposalRow } from '../../backend/governance.ts'
import { maturityLine, powerLine, quorumLine, weightNote } from './proposal-power.ts'
import { FALLBACK_RULES } from './governance-text.ts'

const power = (over: Partial<ProposalPower> = {}): ProposalPower => ({
  proposal_id: 'p',
  balance: 250,
  locked: 0,
  own_power: 200,
  delegated_power: 0,
  delegated: false,
  voting_power: 200,
  power_days: 30,
  ...over,
})

describe('powerLine: the snapshot power in words', () => {
  it('says where the power comes from', () => {
    expect(powerLine(power(), true, FALLBACK_RULES)).toBe(
      'Your voting power on this proposal: 200 (from your balance when it was created).',
    )
    expect(powerLine(power({ delegated_power: 80, voting_power: 280 }), true, FALLBACK_RULES)).toBe(
      'Your voting power on this proposal: 280 (200 from your balance when it was created + 80 delegated).',
    )
  })
  it('explains each kind of none: created after, delegated, not trusted yet, no CUBE', () => {
    expect(powerLine(undefined, true, FALLBACK_RULES)).toMatch(/did not exist yet when it was created/)
    expect(powerLine(power({ delegated: true, voting_power: 0 }), true, FALLBACK_RULES)).toMatch(/went to your delegate/)
    expect(powerLine(power({ locked: 100, own_power: 0, voting_power: 0 }), true, FALLBACK_RULES)).toMatch(
      /your account was not trusted yet when it was created/,
    )
    expect(powerLine(power({ own_power: 0, voting_power: 0 }), true, FALLBACK_RULES)).toMatch(/no unlocked CUBE/)
    expect(powerLine(undefined, false, FALLBACK_RULES)).toBe('Your voting power on this proposal: …')
  })
})

describe('voting power weighted by listening days, in words', () => {
  it('names the weight of a snapshot taken before full weight, and nothing at full weight or before the rule', () => {
    expect(powerLine(power({ own_power: 20, voting_power: 20, power_days: 3 }), true, FALLBACK_RULES)).toBe(
      'Your voting power on this proposal: 20 (from your balance when it was created, weighted by 3 of 30 listening days).',
    )
    expect(powerLine(power({ own_power: 20, delegated_power: 80, voting_power: 100, power_days: 3 }), true, FALLBACK_RULES)).toBe(
      'Your voting power on this proposal: 100 ' +
        '(20 from your balance when it was created, weighted by 3 of 30 listening days + 80 delegated).',
    )
    expect(powerLine(power({ balance: 1, own_power: 0, voting_power: 0, power_days: 0 }), true, FALLBACK_RULES)).toBe(
      'No voting power on this proposal: ' +
        'your unlocked CUBE, weighted by 0 of 30 listening days, came to less than one vote when it was created.',
    )
    expect(weightNote(30, FALLBACK_RULES)).toBe('')
    expect(weightNote(45, FALLBACK_RULES)).toBe('')
    expect(weightNote(null, FALLBACK_RULES)).toBe('')
  })
  it('says how far the next proposal\u2019s weight is from full, only for a trusted account below it', () => {
    expect(maturityLine({ trusted: true, power_days: 4 }, FALLBACK_RULES)).toBe(
      'Your CUBE vote 4/30 of their weight: voting power grows with each day you listen and is full once you have listened on 30 ' +
        'different days in the last 180.',
    )
    expect(maturityLine({ trusted: true, power_days: 30 }, FALLBACK_RULES)).toBe('')
    expect(maturityLine({ trusted: false, power_days: 2 }, FALLBACK_RULES)).toBe('')
  })
})

describe('quorumLine', () => {
  const p = { votes_for: 300, votes_against: 50, snapshot_power: 4000, quorum_power: 400 } as ProposalRow
  it('shows the quorum as a share of the snapshot and whether it is reached', () => {
    expect(quorumLine(p, FALLBACK_RULES)).toBe('Quorum: 10% of the 4000 voting power snapshotted at creation = 400 · taken part: 350')
    expect(quorumLine({ ...p, votes_for: 350 }, FALLBACK_RULES)).toMatch(/taken part: 400 \(reached\)$/)
  })
})
