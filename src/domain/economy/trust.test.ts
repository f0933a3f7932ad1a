import { describe, expect, it } from 'vitest'
import { claimLockedReason, lockedExplanation, type TrustStatus } from './trust.ts'

const status = (over: Partial<TrustStatus> = {}): TrustStatus => ({
  trusted: false,
  listening_days: 1,
  distinct_songs: 4,
  needed_days: 3,
  needed_songs: 10,
  welcome: 100,
  locked: 100,
  balance: 100,
  ...over,
})

describe('the trust rule in words (supabase/schemas/trust.sql)', () => {
  it('says what is locked and what unlocks it, with the progress', () => {
    expect(lockedExplanation(status())).toBe(
      '100 CUBE locked: your welcome bonus can be spent in the app, but to use it for voting and claiming, ' +
        'listen on 3 different days (1/3) and to 10 different songs (4/10).',
    )
    expect(lockedExplanation(status({ listening_days: 5, distinct_songs: 9 }))).toMatch(/\(3\/3\) and to 10 different songs \(9\/10\)/)
  })
  it('an untrusted account that spent its welcome still learns what unlocks claiming; a trusted one sees nothing', () => {
    expect(lockedExplanation(status({ locked: 0, balance: 0 }))).toBe(
      'To claim rewards and vote with welcome tokens, listen on 3 different days (1/3) and to 10 different songs (4/10).',
    )
    expect(lockedExplanation(status({ trusted: true, locked: 0 }))).toBeNull()
  })
  it('the claim button says why it is locked, as the server does', () => {
    expect(claimLockedReason(status())).toBe(
      'Claiming unlocks once you have listened on 3 different days (1 so far) and to 10 different songs (4 so far).',
    )
    expect(claimLockedReason(status({ trusted: true }))).toBeNull()
    expect(claimLockedReason(null)).toBeNull()
  })
})
