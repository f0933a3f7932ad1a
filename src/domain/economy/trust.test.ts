import { describe, expect, it } from 'vitest'
import { claimLockedReason, lockedExplanation, trustSteps, type TrustStatus } from './trust.ts'

const status = (over: Partial<TrustStatus> = {}): TrustStatus => ({
  trusted: false,
  listening_days: 1,
  distinct_songs: 4,
  needed_days: 3,
  needed_songs: 10,
  age_hours: 50,
  needed_age_hours: 48,
  ring_accounts: 1,
  ring_size: 6,
  welcome: 100,
  locked: 130,
  balance: 130,
  ...over,
})

describe('the trust rule in words (supabase/schemas/trust.sql)', () => {
  it('says that the whole balance is locked, that it stays spendable, and what unlocks it', () => {
    expect(lockedExplanation(status())).toBe(
      '130 CUBE locked: you can spend it in the app (remixes, mints, proposals), but it votes, can be delegated and ' +
        'can be claimed only once your account is trusted. ' +
        'To unlock it: listen on 3 different days (1/3) and to 10 different songs (4/10).',
    )
    expect(lockedExplanation(status({ listening_days: 5, distinct_songs: 9 }))).toMatch(/\(3\/3\) and to 10 different songs \(9\/10\)/)
  })
  it('names every missing part: age, listening, a ring of new accounts on one address', () => {
    const text = lockedExplanation(status({ age_hours: 3, listening_days: 3, distinct_songs: 10, ring_accounts: 30 }))!
    expect(text).toContain(
      'To unlock it: your account must be 48 hours old (it is 3); ' +
        'at most 5 new accounts may be used from one address (30 were from one of yours).',
    )
    expect(text).not.toContain('listen on')
  })
  it('an untrusted account that spent everything still learns what unlocks its earnings; a trusted one sees nothing', () => {
    expect(lockedExplanation(status({ locked: 0, balance: 0 }))).toMatch(
      /^What you earn votes, can be delegated and can be claimed once your account is trusted\. To unlock it: /,
    )
    expect(lockedExplanation(status({ trusted: true, locked: 0 }))).toBeNull()
  })
  it('lists each part of the rule with its progress', () => {
    expect(trustSteps(status({ ring_accounts: 6 }))).toEqual([
      { label: 'Account age', done: true, progress: '48/48 hours' },
      { label: 'Days listened', done: false, progress: '1/3' },
      { label: 'Different songs', done: false, progress: '4/10' },
      { label: 'New accounts on your address', done: false, progress: '6 (fewer than 6)' },
    ])
  })
  it('the claim button says why it is locked', () => {
    expect(claimLockedReason(status())).toBe(
      'Claiming unlocks once your account is trusted: listen on 3 different days (1/3) and to 10 different songs (4/10).',
    )
    expect(claimLockedReason(status({ trusted: true }))).toBeNull()
    expect(claimLockedReason(null)).toBeNull()
  })
})
