import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRouter } from 'react-router-dom'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { byTestId, textOf } from '../../../tests/component/ui.ts'
import type { CreatorEarnings } from '../../backend/wallet.ts'
import { economyKeys } from '../../domain/economy/economy-keys.ts'
import { queryClient } from '../../domain/session/query-client.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { CreatorEarningsCard } from './CreatorEarningsCard.tsx'

// Creators: a creator sees what each published song earned from other people's
// listens, and the rule in words; a failure is said in words.

const fetchCreatorEarnings = vi.fn<() => Promise<CreatorEarnings>>()
const server = fakeBackend({ wallet: { fetchCreatorEarnings } })

const card = () =>
  renderWithBackend(
    <MemoryRouter>
      <CreatorEarningsCard />
    </MemoryRouter>,
    server.backend,
  )

beforeEach(() => {
  fetchCreatorEarnings.mockReset()
  useSessionStore.getState().setUser({ id: 'creator-1', email: 'c@example.com' })
})

describe('CreatorEarningsCard', () => {
  it('lists each published song with its listens and CUBE, the total, today against the cap, and the rule', async () => {
    fetchCreatorEarnings.mockResolvedValue({
      total: 7,
      today: 3,
      daily_cap: 50,
      per_listen: 1,
      songs: [
        { song_id: 'a', title: 'Night Bus', slug: 'night-bus', listens: 5, cube: 5 },
        { song_id: 'b', title: 'Quiet Hours', slug: 'quiet-hours', listens: 1, cube: 1 },
      ],
    })
    const el = card()
    await vi.waitFor(() => expect(textOf(el, 'creator-earnings-total')).toBe('7 CUBE'))
    expect(textOf(el, 'creator-earnings-today')).toBe('3')
    const rows = [...el.querySelectorAll('[data-testid="creator-earnings-song"]')].map((r) => r.textContent)
    expect(rows).toEqual(['Night Bus5 listens · 5 CUBE', 'Quiet Hours1 listen · 1 CUBE'])
    expect(el.querySelector('a[href="/song/night-bus"]')).not.toBeNull()
    expect(el.textContent).toContain('pays you 1 CUBE, up to 50 CUBE a day')
    expect(el.textContent).toContain('accounts under a day old, pay nothing')
  })

  it('shows nothing to someone who has published nothing, and says a failure in words', async () => {
    fetchCreatorEarnings.mockResolvedValueOnce({ total: 0, today: 0, daily_cap: 50, per_listen: 1, songs: [] })
    const el = card()
    await vi.waitFor(() => expect(fetchCreatorEarnings).toHaveBeenCalledTimes(1))
    await settle()
    expect(byTestId(el, 'creator-earnings')).toBeNull()
    fetchCreatorEarnings.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await settle(() => queryClient.invalidateQueries({ queryKey: economyKeys.creatorEarnings('creator-1') }))
    await vi.waitFor(() => expect(el.textContent).toContain('Creator earnings could not be loaded. Try again later.'))
    expect(el.textContent).not.toContain('TypeError')
  })

  it('shows nothing to visitors', async () => {
    useSessionStore.getState().setUser(null)
    const el = card()
    await settle()
    expect(byTestId(el, 'creator-earnings')).toBeNull()
    expect(fetchCreatorEarnings).not.toHaveBeenCalled()
  })
})
