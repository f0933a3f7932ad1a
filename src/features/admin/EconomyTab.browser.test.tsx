import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderWithBackend } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { byRole, textOf } from '../../../tests/component/ui.ts'
import type { EconomyReport } from '../../backend/admin.ts'
import type { Backend } from '../../domain/session/backend-context.ts'
import { EconomyTab } from './EconomyTab.tsx'

// The admin's Economy view shows the server's ledger report as it is, flags balances that differ
// from the ledger, and says a failure in words.

const fetchEconomy = vi.fn<Backend['admin']['fetchEconomy']>()
const server = fakeBackend({ admin: { fetchEconomy } })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const report = (over: Partial<EconomyReport['totals']> = {}): EconomyReport => ({
  days: 14,
  perDay: [
    { day: '2026-11-26', reason: 'listen', minted: 10, burned: 0, entries: 2 },
    { day: '2026-11-26', reason: 'remix', minted: 0, burned: 50, entries: 1 },
  ],
  totals: { minted: 210, burned: 50, supply: 160, ledgerSum: 160, accounts: 2, ...over },
  topEarners: [{ username: 'earner', earned: 10, listens: 2, creator: 3 }],
  heldBack: {
    accounts: 2,
    locked: 150,
    neededDays: 3,
    neededSongs: 10,
    closest: [{ username: 'newbie', listeningDays: 1, distinctSongs: 4, locked: 100 }],
  },
  listenOutcomes: { credited: 2, song_limit: 1 },
})

beforeEach(() => fetchEconomy.mockReset())

describe('EconomyTab', () => {
  it('shows created, destroyed and held CUBE, the day table, the top earners and the rules that bit', async () => {
    fetchEconomy.mockResolvedValue(report())
    const el = render(<EconomyTab />)
    await vi.waitFor(() => expect(textOf(el, 'economy-minted')).toBe('210 CUBE'))
    expect(textOf(el, 'economy-burned')).toBe('50 CUBE')
    expect(textOf(el, 'economy-balanced')).toBe("Balances equal the ledger's sum (160 CUBE).")
    expect(el.querySelectorAll('[data-testid="economy-per-day"] tbody tr')).toHaveLength(2)
    expect(textOf(el, 'economy-top-earners')).toContain('earner 10 CUBE · 2 rewarded listens · 3 CUBE as a creator')
    expect(textOf(el, 'economy-listen-outcomes')).toContain('Song played more than twice a day: 1')
    expect(textOf(el, 'economy-held-back')).toContain(
      '2 accounts have 150 CUBE locked (no voting power, no delegating, no claiming) until they are trusted',
    )
    expect(el.textContent).toContain('newbie 1/3 days · 4/10 songs · 100 CUBE locked')
  })

  it('flags balances that differ from the ledger', async () => {
    fetchEconomy.mockResolvedValue(report({ supply: 170 }))
    const el = render(<EconomyTab />)
    await vi.waitFor(() => expect(textOf(el, 'economy-balanced')).toContain('differ'))
  })

  it('says a failure in words', async () => {
    fetchEconomy.mockRejectedValueOnce(Object.assign(new Error('administrators_only'), { code: '42501' }))
    const el = render(<EconomyTab />)
    await vi.waitFor(() => byRole(el, 'alert'))
    expect(byRole(el, 'alert').textContent).not.toMatch(/TypeError|undefined/)
  })
})
