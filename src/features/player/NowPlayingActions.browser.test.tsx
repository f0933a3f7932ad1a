import { beforeEach, describe, expect, it, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import '../../styles/index.css'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { notify } from '../../lib/notify.ts'
import { defaultPlaylists, selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useShareLinksStore } from '../../domain/economy/share-links-store.ts'
import { SONG_NOT_SHAREABLE } from '../../domain/economy/song-share.ts'
import { SlotsProvider } from '../../ui/slots.tsx'
import { NowPlayingActions } from './NowPlayingActions.tsx'
import { AddToPlaylistMenu } from '../playlists/AddToPlaylistMenu.tsx'

// Now Playing gets Like, Add to playlist (the playlists feature's menu, through its slot)
// and Share, which copies the song page's address with the user's own copy-link token, made by the
// server's share_create like Share & Earn's links, so an opening by someone else is credited.

const sharingFakes = {
  createShareLink: vi.fn(),
}
const { createShareLink } = sharingFakes
const publishingFakes = {
  fetchSongById: vi.fn(),
}
const { fetchSongById } = publishingFakes
const server = fakeBackend({ sharing: sharingFakes, publishing: publishingFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)
vi.mock('../../lib/notify.ts', () => ({ notify: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }))

const neon = SAMPLE_SONGS.find((s) => s.id === 'neon-drift')!
const TOKEN = 'f'.repeat(64)
// The real menu, as the app's slot supplies it (a test may import across features).
const slots = { AddToPlaylistMenu }
const mount = (song: Song) =>
  render(
    <SlotsProvider slots={slots}>
      <NowPlayingActions song={song} />
    </SlotsProvider>,
  )

let copied: string[] = []
beforeEach(() => {
  vi.clearAllMocks()
  copied = []
  vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text: string) => void copied.push(text))
  usePlaylistStore.setState({ playlists: defaultPlaylists() })
  useShareLinksStore.getState().clear()
  useSessionStore.setState({ user: { id: 'u-1', email: 'ava@cube.test' } })
  vi.mocked(fetchSongById).mockImplementation(async (id) => (id === 'neon-drift' ? ({ id, slug: 'neon-drift' } as never) : null))
  vi.mocked(createShareLink).mockImplementation(async (itemType, itemId, platform) => ({
    id: 'link-1',
    token: TOKEN,
    item_type: itemType,
    item_id: itemId,
    platform,
    amount: 5,
    status: 'pending',
    shared_at: '2026-11-26T10:00:00Z',
    credited_at: null,
    last_open_reason: null,
    last_open_at: null,
  }))
})

describe('Now Playing actions', () => {
  it('Like puts the song in Favorite Tracks and takes it out again', async () => {
    mount(neon)
    const like = page.getByRole('button', { name: 'Like Neon Drift' })
    expect(like.element().getAttribute('aria-pressed')).toBe(String(selectIsFavourite('neon-drift')(usePlaylistStore.getState())))
    const before = selectIsFavourite('neon-drift')(usePlaylistStore.getState())
    await settle(() => userEvent.click(like))
    expect(selectIsFavourite('neon-drift')(usePlaylistStore.getState())).toBe(!before)
    expect(like.element().getAttribute('aria-pressed')).toBe(String(!before))
    await settle(() => userEvent.click(like))
    expect(selectIsFavourite('neon-drift')(usePlaylistStore.getState())).toBe(before)
  })

  it('Add to playlist offers every playlist of the user and "New playlist…"; choosing one adds the song', async () => {
    usePlaylistStore.setState({ playlists: [...defaultPlaylists(), { id: 'pl-night', name: 'Night Drive', songs: [] }] })
    mount(neon)
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Add Neon Drift to playlist' })))
    const items = document.querySelectorAll('[role="menu"] [role="menuitem"]')
    expect([...items].map((b) => b.textContent?.trim())).toEqual(['Favorite Tracks', 'Synthwave Mix', 'Night Drive', 'New playlist…'])
    await settle(() => userEvent.click(page.getByRole('menuitem', { name: 'Night Drive' })))
    expect(
      usePlaylistStore
        .getState()
        .playlists.find((p) => p.id === 'pl-night')
        ?.songs.map((s) => s.id),
    ).toEqual(['neon-drift'])
    // Still on screen at 375 px: the menu opens leftwards from the last button of the row.
    await page.viewport(375, 812)
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Add Neon Drift to playlist' })))
    expect(document.querySelector('[role="menu"]')!.getBoundingClientRect().left).toBeGreaterThanOrEqual(0)
  })

  it('signed in, Share copies the song page with the user’s copy-link token and says what it pays', async () => {
    mount(neon)
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Share Neon Drift' })))
    await expect.poll(() => copied).toEqual([`${location.origin}/song/neon-drift?s=${TOKEN}`])
    expect(createShareLink).toHaveBeenCalledWith('song', 'neon-drift', 'copy_link')
    expect(useShareLinksStore.getState().links['link-1']?.status).toBe('pending')
    expect(page.getByRole('button', { name: 'Share Neon Drift' }).element().textContent).toContain('Link copied')
    expect(vi.mocked(notify.success).mock.calls[0]?.[1]?.description).toBe('Pays 5 CUBE when someone else opens it.')
  })

  it('signed out, Share copies the plain page address and asks the server for no link', async () => {
    useSessionStore.setState({ user: null })
    mount(neon)
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Share Neon Drift' })))
    await expect.poll(() => copied).toEqual([`${location.origin}/song/neon-drift`])
    expect(createShareLink).not.toHaveBeenCalled()
  })

  it('a track only on this device cannot be shared, and the user is told why in words', async () => {
    mount({ ...neon, id: 'my-take', title: 'My Take', audioUrl: 'idb:my-take' })
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Share My Take' })))
    await expect.poll(() => vi.mocked(notify.error).mock.calls.length).toBe(1)
    expect(vi.mocked(notify.error).mock.calls[0]).toEqual([
      'Could not share this track',
      { id: 'song-share', description: SONG_NOT_SHAREABLE },
    ])
    expect(copied).toEqual([])
    expect(page.getByRole('button', { name: 'Share My Take' }).element().textContent).toContain('Share')
  })
})
