import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { allByRole } from '../../../tests/component/ui.ts'
import type { ShareLink } from '../../backend/sharing.ts'
import type { LedgerEntry } from '../../backend/wallet.ts'
import { useShareLinksStore } from '../../domain/economy/share-links-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { LedgerTokenActivity } from './LedgerTokenActivity.tsx'

// A sharer sees in the activity list what happened to each share: a paid open is the ledger's
// row with its CUBE; an open that paid nothing says why, in the server's words (open_share records
// the reason on the link), and arrives live without a request.

const paid: LedgerEntry = { id: '9', amount: 5, reason: 'share', reference: 'song:neon-drift:twitter', created_at: '2026-12-02T09:00:00Z' }
const link = (over: Partial<ShareLink>): ShareLink => ({
  id: 'l1',
  token: 'ab'.repeat(32),
  item_type: 'song',
  item_id: 'neon-drift',
  platform: 'copy_link',
  amount: 5,
  status: 'pending',
  shared_at: '2026-12-02T08:00:00Z',
  credited_at: null,
  last_open_reason: null,
  last_open_at: null,
  ...over,
})

const server = fakeBackend({
  wallet: { fetchLedger: async () => [paid] },
  profile: { fetchSongs: async () => new Map([['neon-drift', { id: 'neon-drift', title: 'Neon Drift' } as never]]) },
})

const rows = (el: HTMLElement) => allByRole(el, 'listitem').map((li) => li.textContent ?? '')

beforeEach(() => {
  server.reset()
  useShareLinksStore.getState().clear()
  useSessionStore.getState().setUser({ id: 'sharer-1', email: 's@example.com' })
})

describe('LedgerTokenActivity: what happened to a share', () => {
  it('shows a paid share with its CUBE and an unpaid open with the reason, live', async () => {
    useShareLinksStore
      .getState()
      .replaceAll([link({ id: 'own', last_open_reason: 'same_client', last_open_at: '2026-12-02T09:30:00Z' }), link({ id: 'fresh' })])
    const el = renderWithBackend(<LedgerTokenActivity />, server.backend)
    await expect.poll(() => rows(el).length).toBe(2)
    const [own, shared] = rows(el)
    expect(own).toContain('Shared Neon Drift via a copied link: opened, not paid (opened from your own network or device)')
    expect(own).toContain('no CUBE')
    expect(shared).toContain('Shared Neon Drift via Twitter')
    expect(shared).toContain('+5')
    server.reset()

    await settle(() =>
      useShareLinksStore
        .getState()
        .upsert(link({ id: 'capped', platform: 'qr', last_open_reason: 'daily_cap', last_open_at: '2026-12-02T09:45:00Z' })),
    )
    expect(rows(el)[0]).toContain('Shared Neon Drift via a QR code: opened, not paid (you reached today’s limit of paid shares)')
    expect(rows(el)).toHaveLength(3)
    expect(server.calls).toEqual([])
  })
})
