import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import type { ShareItemType, SharePlatform } from '../../backend/sharing.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useShareLinksStore } from '../../domain/economy/share-links-store.ts'
import { SharePanel } from './SharePanel.tsx'
import { shareId, type TrackRecipe } from './share-link.ts'

// The generator's share panel copied the plain recipe address, which no server could
// credit. A signed-in creator's copied link and QR code now carry the tokens of their own links.

const sharingFakes = {
  createShareLink: vi.fn(async (item_type: ShareItemType, item_id: string, platform: SharePlatform) => ({
    id: platform,
    token: `tok-${platform}`,
    item_type,
    item_id,
    platform,
    amount: 15,
    status: 'pending',
    shared_at: '2026-11-26T10:00:00Z',
    credited_at: null,
    last_open_reason: null,
    last_open_at: null,
  })),
}
const { createShareLink } = sharingFakes
const server = fakeBackend({ sharing: sharingFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const RECIPE: TrackRecipe = { description: 'rain on neon', mood: 'chill', genre: 'ambient' }
const plain = `${location.origin}/track/${shareId(RECIPE)}`
let clipboard: string[] = []

beforeEach(() => {
  vi.clearAllMocks()
  clipboard = []
  vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => void clipboard.push(text))
  useShareLinksStore.getState().clear()
  useSessionStore.getState().setSession(null, false)
})
afterEach(() => vi.restoreAllMocks())

const linkBox = (el: HTMLElement) => el.querySelector<HTMLInputElement>('input[aria-label="Track link"]')!
const qrAlt = (el: HTMLElement) => el.querySelector('img')?.getAttribute('alt') ?? null
const copyButton = (el: HTMLElement) => [...el.querySelectorAll('button')].find((b) => /Copy link|Copied!/.test(b.textContent ?? ''))!

describe('the generator share panel', () => {
  it('a signed-in creator: the QR code and the copied link carry their links’ tokens', async () => {
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    const el = render(<SharePanel recipe={RECIPE} title="Rain" onClose={() => undefined} />)
    await expect.poll(() => qrAlt(el)).toBe(`QR code for ${plain}?s=tok-qr`)
    expect(linkBox(el).value).toBe(plain)
    await settle(() => copyButton(el).click())
    await expect.poll(() => linkBox(el).value).toBe(`${plain}?s=tok-copy_link`)
    expect(clipboard).toEqual([`${plain}?s=tok-copy_link`])
    expect(copyButton(el).textContent).toContain('Copied!')
    expect(vi.mocked(createShareLink).mock.calls).toEqual([
      ['track', shareId(RECIPE), 'qr'],
      ['track', shareId(RECIPE), 'copy_link'],
    ])
  })

  it('a visitor copies the plain recipe address; no link is asked of the server', async () => {
    const el = render(<SharePanel recipe={RECIPE} title="Rain" onClose={() => undefined} />)
    await expect.poll(() => qrAlt(el)).toBe(`QR code for ${plain}`)
    await settle(() => copyButton(el).click())
    await expect.poll(() => clipboard).toEqual([plain])
    expect(linkBox(el).value).toBe(plain)
    expect(createShareLink).not.toHaveBeenCalled()
  })
})
