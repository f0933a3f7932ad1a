import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { renderWithBackend } from '../../tests/component/render.tsx'
import { fakeBackend } from '../../tests/component/fake-backend.ts'
import { subscribeNotices, type Notice } from '../lib/notify.ts'
import { SharedLinkOpener } from './SharedLinkOpener.tsx'

// A shared address carries its link's token (?s=…). The public page asks the server for a visit,
// redeems it once the page has been shown (open_share pays the sharer when the opener is someone
// else) and drops the token from the address bar; an invalid token is explained in words, and the
// page still shows.

const shareVisitCalls = {
  begin: vi.fn(async (token: string) => {
    if (token === 'bad') throw { message: 'invalid_share_link', details: 'This share link is not valid: it may be cut short or mistyped.' }
    return { nonce: `nonce-of-${token}`, redeem_after_ms: 0, expires_in_ms: 60_000 }
  }),
  open: vi.fn(async (_token: string, _nonce: string) => ({ credited: true, reason: 'credited' })),
}
const { begin, open } = shareVisitCalls
const server = fakeBackend({ sharing: { shareVisitCalls } })

function Where() {
  const location = useLocation()
  return <span data-testid="where">{location.pathname + location.search}</span>
}

const at = (url: string) =>
  renderWithBackend(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route
          path="/song/:slug"
          element={
            <SharedLinkOpener>
              <Where />
            </SharedLinkOpener>
          }
        />
      </Routes>
    </MemoryRouter>,
    server.backend,
  )

beforeEach(() => vi.clearAllMocks())

describe('SharedLinkOpener', () => {
  it('reports the token once and removes it from the address, keeping the rest', async () => {
    const token = 'cd'.repeat(32)
    const el = at(`/song/neon-drift?s=${token}&t=30`)
    await expect.poll(() => el.querySelector('[data-testid="where"]')?.textContent).toBe('/song/neon-drift?t=30')
    // The backend module loads on the first shared link, so the call follows the address change.
    await expect.poll(() => vi.mocked(open).mock.calls).toEqual([[token, `nonce-of-${token}`]])
    expect(vi.mocked(begin).mock.calls).toEqual([[token]])
  })

  it('does nothing without a token', async () => {
    const el = at('/song/neon-drift')
    await new Promise((r) => setTimeout(r, 50))
    expect(el.querySelector('[data-testid="where"]')?.textContent).toBe('/song/neon-drift')
    expect(begin).not.toHaveBeenCalled()
    expect(open).not.toHaveBeenCalled()
  })

  it('an invalid token is explained in words; the page stays', async () => {
    const notices: Notice[] = []
    const stop = subscribeNotices((n) => notices.push(n))
    try {
      const el = at('/song/neon-drift?s=bad')
      await expect.poll(() => el.querySelector('[data-testid="where"]')?.textContent).toBe('/song/neon-drift')
      await expect.poll(() => vi.mocked(begin).mock.calls).toEqual([['bad']])
      expect(open).not.toHaveBeenCalled()
      await expect.poll(() => notices.map((n) => n.title)).toContain('This share link is not valid: it may be cut short or mistyped.')
    } finally {
      stop()
    }
  })
})
