import { describe, expect, it } from 'vitest'
import { render } from '../../../tests/component/render.tsx'
import { LockedBalanceNote } from './LockedBalanceNote.tsx'

// The wallet shows the locked part of the balance and what unlocks it (the trust rule).

const status = {
  trusted: false,
  listening_days: 1,
  distinct_songs: 4,
  needed_days: 3,
  needed_songs: 10,
  welcome: 150,
  locked: 150,
  balance: 162,
}

describe('LockedBalanceNote', () => {
  it('says how much is locked and the progress towards unlocking it', () => {
    const el = render(<LockedBalanceNote status={status} />)
    const note = el.querySelector('[data-testid="wallet-locked"]')!
    expect(note.textContent).toContain('150 CUBE locked: your welcome bonus can be spent in the app')
    expect(note.textContent).toContain('listen on 3 different days (1/3) and to 10 different songs (4/10)')
    expect(note.textContent).toContain('Days listened: 1/3 · Different songs: 4/10')
  })

  it('shows nothing for a trusted account or before the server answered', () => {
    expect(render(<LockedBalanceNote status={{ ...status, trusted: true, locked: 0 }} />).textContent).toBe('')
    expect(render(<LockedBalanceNote status={null} />).textContent).toBe('')
  })
})
