import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRouter } from 'react-router-dom'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { allByRole, textOf } from '../../../tests/component/ui.ts'
import type { LedgerEntry, ListenAnswer } from '../../backend/wallet.ts'
import type { TrustStatus } from '../../backend/trust.ts'
import { applyListenAnswer } from '../../domain/economy/listen-reporter.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import WalletPage from './WalletPage.tsx'

// The wallet is one screen of cached server state: a credited listen's answer carries the new
// balance and the amount, so the screen takes both from it. The proof counts the requests: the
// listen report is the only one, where the wallet used to reread its claim pot, NFTs, chains,
// trust, earnings and up to 1,000 ledger rows.

vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))

const USER = 'listener-1'
const welcome: LedgerEntry = { id: '1', amount: 10, reason: 'welcome', reference: null, created_at: '2026-12-01T08:00:00Z' }
const trust: TrustStatus = {
  trusted: true,
  listening_days: 3,
  distinct_songs: 5,
  needed_days: 2,
  needed_songs: 3,
  age_hours: 80,
  needed_age_hours: 24,
  ring_accounts: 1,
  ring_size: 4,
  welcome: 10,
  locked: 0,
  balance: 10,
}
const credited: ListenAnswer = {
  session_id: 'session-7',
  heard_seconds: 31,
  ended: false,
  credited: 2,
  balance: 12,
  daily_earned: 2,
  listens_today: 1,
  daily_cap: 20,
  cap_reached: false,
  reason: 'credited',
  needs_interaction: false,
}

const server = fakeBackend({
  web3: {
    fetchClaimStatus: async () => ({ listenedSeconds: 0, claimable: 0, claimed: 0, hourProgress: 0 }),
    fetchNfts: async () => [],
    fetchLedgerSince: async () => [welcome],
    fetchBlockchainConfigs: async () => [],
  },
  wallet: {
    fetchLedger: async () => [welcome],
    fetchCreatorEarnings: async () => ({ total: 0, today: 0, daily_cap: 50, per_listen: 1, songs: [] }),
    reportListen: async () => credited,
  },
  profile: { fetchSongs: async () => new Map() },
  trust: { fetchTrustStatus: async () => trust },
})

const activityRows = (el: HTMLElement) =>
  allByRole(el, 'listitem')
    .filter((li) => li.dataset.testid === 'token-activity-item')
    .map((li) => li.textContent)

beforeEach(() => {
  localStorage.clear()
  server.reset()
  useSessionStore.getState().setUser({ id: USER, email: 'l@example.com' })
  useSessionStore.getState().setWallet({ balance: 10, daily_earned: 0, listens_today: 0 })
})

describe('WalletPage server state', () => {
  it('takes a credited listen from its one answer: balance and activity update, nothing is read again', async () => {
    const el = renderWithBackend(
      <MemoryRouter>
        <WalletPage />
      </MemoryRouter>,
      server.backend,
    )
    await vi.waitFor(() => expect(activityRows(el)).toEqual([expect.stringContaining('Welcome bonus')]))
    await settle()
    // The first visit reads each resource once.
    expect(server.count('web3.fetchLedgerSince')).toBe(1)
    expect(server.count('wallet.fetchLedger')).toBe(1)
    server.reset()

    const answer = await server.backend.wallet.reportListen('session-7', true, true)
    await settle(() => applyListenAnswer('neon-drift', answer, undefined, 'Neon Drift'))
    await settle()

    expect(textOf(el, 'wallet-balance')).toContain('12')
    expect(activityRows(el)[0]).toContain('Neon Drift')
    expect(activityRows(el)[0]).toContain('+2 CUBE')
    expect(server.calls).toEqual(['wallet.reportListen'])
  })
})
