import { describe, expect, it } from 'vitest'
import { NEAR_BUDGET, share, table } from './slowest-tests.ts'

describe('slowest-tests', () => {
  it('states each test’s share of its budget and counts over half as near its timeout', () => {
    const slow = { seconds: 39, budgetSeconds: 30, tier: 'node', name: 'drums' }
    const fine = { seconds: 4.5, budgetSeconds: 30, tier: 'node', name: 'a | b' }
    expect(share(slow)).toBeGreaterThan(NEAR_BUDGET)
    expect(share(fine)).toBeLessThan(NEAR_BUDGET)
    expect(table([slow, fine]).split('\n').slice(2)).toEqual([
      '| 39.0 | 30 | 130 % | node | drums |',
      '| 4.5 | 30 | 15 % | node | a \\| b |',
    ])
  })
})
