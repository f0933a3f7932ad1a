import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import type { ShareLink } from '../../backend/sharing.ts'
import { refreshWallet } from '../../domain/session/session-sync.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import SharingPage from './SharingPage.tsx'
import { ShareLinkList } from './ShareLinkList.tsx'

// A share pays only when someone else opens the link. The sharing screen shows each link
// "Pending — pays N CUBE when someone opens your link" and turns it into "Credited +N CUBE" when
// Realtime reports the credit; the shared address carries the link's token.

const TOKEN = 'ab'.repeat(32)
let push: (link: ShareLink) => void = () => undefined
const link = (over: Partial<ShareLink> = {}): ShareLink => ({
  id: 'l1',
  token: TOKEN,
  item_type: 'song',
  item_id: 'neon-drift',
  platform: 'copy_link',
  amount: 5,
  status: 'pending',
  shared_at: '2026-11-26T10:00:00Z',
  credited_at: null,
  last_open_reason: null,
  last_open_at: null,
  ...over,
})

const sharingFakes = {
  fetchShareRules: vi.fn(async () => ({ amounts: { twitter: 10, facebook: 10, copy_link: 5, qr: 15, share_now: 5 }, daily_cap: 10 })),
  fetchShareAnalytics: vi.fn(async () => ({
    profile_visits: 0,
    track_plays: 0,
    followers: 0,
    shares: 0,
    shares_today: 0,
    shares_pending: 0,
    by_platform: {},
    days: [],
  })),
  fetchShareableSongs: vi.fn(async () => [{ id: 'neon-drift', slug: 'neon-drift', title: 'Neon Drift', artist: 'CUBE' }]),
  fetchShareLinks: vi.fn(async () => []),
  subscribeShareLinks: vi.fn((_user: string, onChange: (l: ShareLink) => void) => {
    push = onChange
    return () => undefined
  }),
  createShareLink: vi.fn(async () => link()),
  openShareLink: vi.fn(),
  recordView: vi.fn(),
}
const { createShareLink } = sharingFakes
const profileFakes = { fetchProfile: vi.fn(async () => ({ username: 'sharer' })) }
const server = fakeBackend({ sharing: sharingFakes, profile: profileFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)
vi.mock('../../domain/session/session-sync.ts', () => ({ refreshWallet: vi.fn(async () => undefined) }))

beforeEach(() => {
  vi.clearAllMocks()
  useSessionStore.setState({ status: 'signed-in', user: { id: 'me' } as never })
  vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue()
})

const page = () =>
  render(
    <MemoryRouter initialEntries={['/app/sharing/tracks']}>
      <Routes>
        <Route path="/app/sharing/*" element={<SharingPage />} />
      </Routes>
    </MemoryRouter>,
  )

describe('Share & Earn: pending until someone opens the link, then credited live', () => {
  it('copying makes a link with the token; it shows pending, then credited when Realtime reports the credit', async () => {
    const el = page()
    await expect.poll(() => el.querySelector('[data-testid="share-targets"]')).not.toBeNull()
    expect(el.querySelector('[data-testid="share-rule"]')?.textContent).toMatch(
      /pays when someone else opens your link.*own clicks never count.*each person pays you once a day, up to 10 paid shares a day/,
    )
    const copy = [...el.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Copy link'))!
    await settle(() => copy.click())
    expect(createShareLink).toHaveBeenCalledWith('song', 'neon-drift', 'copy_link')
    await expect.poll(() => navigator.clipboard.writeText).toHaveBeenCalledWith(`${window.location.origin}/song/neon-drift?s=${TOKEN}`)
    const input = el.querySelector<HTMLInputElement>('[data-testid="share-link"]')!
    await expect.poll(() => input.value).toBe(`${window.location.origin}/song/neon-drift?s=${TOKEN}`)
    const statuses = () => [...el.querySelectorAll('[data-testid="share-link-status"]')].map((s) => s.textContent)
    await expect.poll(statuses).toContain('Pending — pays 5 CUBE when someone opens your link')
    expect(refreshWallet).not.toHaveBeenCalled()

    // A proven open that paid nothing says why, live.
    await settle(() => push(link({ last_open_reason: 'same_client', last_open_at: '2026-11-26T10:03:00Z' })))
    await expect.poll(() => statuses().join('|')).toMatch(/Opened at .+, not paid: opened from your own network or device/)

    await settle(() => push(link({ status: 'credited', credited_at: '2026-11-26T10:05:00Z', last_open_reason: 'credited' })))
    await expect.poll(statuses).toContain('Credited +5 CUBE')
    expect(statuses()).not.toContain('Pending — pays 5 CUBE when someone opens your link')
    expect(refreshWallet).toHaveBeenCalledWith('me')
  })

  it('the list says each state in words', () => {
    const el = render(
      <ShareLinkList
        label="Links"
        links={[link(), link({ id: 'l2', platform: 'qr', amount: 15, status: 'credited', credited_at: '2026-11-26T10:05:00Z' })]}
      />,
    )
    const rows = [...el.querySelectorAll('li')].map((li) => li.textContent)
    expect(rows).toEqual(['Copy linkPending — pays 5 CUBE when someone opens your link', 'QR codeCredited +15 CUBE'])
  })
})
