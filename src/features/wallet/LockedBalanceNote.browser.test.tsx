import { describe, expect, it } from 'vitest'
import { render } from '../../../tests/component/render.tsx'
import { LockedBalanceNote } from './LockedBalanceNote.tsx'

// The wallet shows the locked part of the balance (all of it until the account is trusted) and
// each part of the trust rule that unlocks it, with the account's progress.

const status = {
  trusted: false,
  listening_days: 1,
  distinct_songs: 4,
  needed_days: 3,
  needed_songs: 10,
  age_hours: 20,
  needed_age_hours: 48,
  ring_accounts: 1,
  ring_size: 6,
  welcome: 150,
  locked: 162,
  balance: 162,
}

describe('LockedBalanceNote', () => {
  it('says how much is locked, that it stays spendable, and the progress towards unlocking it', () => {
    const el = render(<LockedBalanceNote status={status} />)
    const note = el.querySelector('[data-testid="wallet-locked"]')!
    expect(note.textContent).toContain('162 CUBE locked: you can spend it in the app (remixes, mints, proposals)')
    expect(note.textContent).toContain('your account must be 48 hours old (it is 20)')
    expect(note.textContent).toContain('listen on 3 different days (1/3) and to 10 different songs (4/10)')
    const steps = [...el.querySelectorAll('[data-testid="trust-steps"] li')].map((li) => [li.textContent, li.getAttribute('data-done')])
    expect(steps).toEqual([
      ['○ Account age: 20/48 hours', 'false'],
      ['○ Days listened: 1/3', 'false'],
      ['○ Different songs: 4/10', 'false'],
      ['✓ New accounts on your address: 1 (fewer than 6)', 'true'],
    ])
  })

  it('shows nothing for a trusted account or before the server answered', () => {
    expect(render(<LockedBalanceNote status={{ ...status, trusted: true, locked: 0 }} />).textContent).toBe('')
    expect(render(<LockedBalanceNote status={null} />).textContent).toBe('')
  })
})
