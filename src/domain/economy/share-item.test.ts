import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const toasts: string[] = []
vi.mock('../../lib/notify.ts', () => {
  const toast = Object.assign((m: string, o?: { description?: string }) => void toasts.push(`${m}|${o?.description ?? ''}`), {
    error: (m: string, o?: { description?: string }) => void toasts.push(`error:${m}|${o?.description ?? ''}`),
    success: (m: string, o?: { description?: string }) => void toasts.push(`success:${m}|${o?.description ?? ''}`),
  })
  return { notify: toast }
})

import type { ShareLink } from '../../backend/sharing.ts'
import { useSessionStore } from '../session/session-store.ts'
import { copyShareLink, sharePath, sharedUrl, shareItem, type ShareDeps } from './share-item.ts'
import { useShareLinksStore } from './share-links-store.ts'

const ORIGIN = 'https://cube.example'
const SONG = { type: 'song', id: 'neon-drift', altId: 'song-1', title: 'Neon Drift' } as const

const made = (over: Partial<ShareLink> = {}): ShareLink => ({
  id: 'l1',
  token: 'tok_123',
  item_type: 'song',
  item_id: 'song-1',
  platform: 'copy_link',
  amount: 15,
  status: 'pending',
  shared_at: '2026-11-26T10:00:00Z',
  credited_at: null,
  last_open_reason: null,
  last_open_at: null,
  ...over,
})

beforeEach(() => {
  vi.stubGlobal('window', { location: { origin: ORIGIN } })
  toasts.length = 0
  useShareLinksStore.getState().clear()
  useSessionStore.getState().setSession(null, false)
})
afterEach(() => vi.unstubAllGlobals())

describe('share addresses', () => {
  it('name the item page and carry the token in ?s=', () => {
    expect(sharePath('user', 'neo one')).toBe('/user/neo%20one')
    expect(sharedUrl(ORIGIN, 'song', 'neon-drift', 'a/b')).toBe(`${ORIGIN}/song/neon-drift?s=a%2Fb`)
  })
})

describe('copyShareLink', () => {
  it('a signed-in user copies the tokened link the server made, and is told what it pays', async () => {
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    const create = vi.fn<ShareDeps['create']>(async () => made())
    const clipboard = vi.fn(async () => undefined)
    const copied = await copyShareLink(SONG, clipboard, { create })
    expect(create).toHaveBeenCalledWith('song', 'neon-drift', 'copy_link')
    expect(copied).toEqual({ url: `${ORIGIN}/song/neon-drift?s=tok_123`, amount: 15 })
    expect(clipboard).toHaveBeenCalledWith(`${ORIGIN}/song/neon-drift?s=tok_123`)
    expect(toasts).toEqual(['success:Link copied|Pays 15 CUBE when someone else opens it.'])
    // The link is in the store, so the Sharing page lists it as pending at once.
    expect(Object.values(useShareLinksStore.getState().links)).toEqual([made()])
  })

  it('a visitor copies the plain address; no link is asked for', async () => {
    const create = vi.fn<ShareDeps['create']>(async () => made())
    const clipboard = vi.fn(async () => undefined)
    expect(await copyShareLink(SONG, clipboard, { create })).toEqual({ url: `${ORIGIN}/song/neon-drift`, amount: null })
    expect(create).not.toHaveBeenCalled()
    expect(toasts[0]).toMatch(/^success:Link copied\|Sign in before sharing/)
  })

  it('when the server refuses, the user hears why and still gets the plain address', async () => {
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    const create = vi.fn<ShareDeps['create']>(async () => {
      throw new Error('Too many share links from this address: try again later.')
    })
    const clipboard = vi.fn(async () => undefined)
    expect(await copyShareLink(SONG, clipboard, { create })).toEqual({ url: `${ORIGIN}/song/neon-drift`, amount: null })
    expect(toasts).toEqual([
      'error:Could not make your share link|Too many share links from this address: try again later.',
      'success:Link copied|The plain address: it pays nothing when opened.',
    ])
  })

  it('a refused clipboard shows the address to copy by hand', async () => {
    const clipboard = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError')
    })
    expect(await copyShareLink(SONG, clipboard)).toEqual({ url: `${ORIGIN}/song/neon-drift`, amount: null })
    expect(toasts).toEqual([`Copy this link by hand|${ORIGIN}/song/neon-drift`])
  })

  it('a second click while the first request is on its way asks nothing more', async () => {
    useSessionStore.getState().setUser({ id: 'u1', email: 'a@b.c' })
    let answer: (l: ShareLink) => void = () => undefined
    const create = vi.fn<ShareDeps['create']>(() => new Promise((r) => (answer = r)))
    const clipboard = vi.fn(async () => undefined)
    const first = copyShareLink(SONG, clipboard, { create })
    expect(await copyShareLink(SONG, clipboard, { create })).toBeNull()
    answer(made())
    expect((await first)?.amount).toBe(15)
    expect(create).toHaveBeenCalledTimes(1)
    expect(clipboard).toHaveBeenCalledTimes(1)
    // Not busy any more: a later click asks again (the server answers with the same link).
    expect(await shareItem(SONG, 'copy_link', { create: async () => made() })).toEqual(made())
  })
})
