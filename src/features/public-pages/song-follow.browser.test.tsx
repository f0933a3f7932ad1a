import { beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import type { ReactNode } from 'react'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { catalogueRow } from '../../../tests/component/catalogue-row.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import SongPage from './SongPage.tsx'

// A published song's page offers Follow for its artist (public.follows, as the profile page does).

const OWNER = '00000000-0000-4000-8000-0000000000aa'
const SONG = catalogueRow({ id: 'pub-follow', title: 'Night Drive', slug: 'night-drive', artist: 'kai', owner_id: OWNER })
let followingNow = false

const publishingFakes = {
  fetchSongBySlug: vi.fn(async () => SONG),
  fetchSongById: vi.fn(async () => null),
  fetchRemixesOf: vi.fn(async () => []),
}
const profileFakes = {
  fetchProfile: vi.fn(async () => ({ user_id: OWNER, username: 'kai', avatar_url: null, bio: null, created_at: '' })),
}
const commentsFakes = {
  countSongComments: vi.fn(async () => 0),
  subscribeSongComments: vi.fn(() => () => undefined),
}
const followsFakes = {
  fetchFollowCounts: vi.fn(async () => ({ followers: followingNow ? 1 : 0, following: 0 })),
  isFollowing: vi.fn(async () => followingNow),
  follow: vi.fn(async () => void (followingNow = true)),
  unfollow: vi.fn(async () => void (followingNow = false)),
}
const { follow, unfollow } = followsFakes
const server = fakeBackend({ publishing: publishingFakes, profile: profileFakes, comments: commentsFakes, follows: followsFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const page = () =>
  render(
    <MemoryRouter initialEntries={['/song/night-drive']}>
      <Routes>
        <Route path="/song/:slug" element={<SongPage />} />
      </Routes>
    </MemoryRouter>,
  )
const followButton = (el: HTMLElement) => el.querySelector<HTMLButtonElement>('[data-testid="follow-artist"]')

beforeEach(() => {
  followingNow = false
  vi.mocked(follow).mockClear()
  vi.mocked(unfollow).mockClear()
  useAuthModalStore.setState({ openTab: null })
})

describe("the song page's Follow", () => {
  it('a listener follows the artist from the song page, and unfollows', async () => {
    useSessionStore.setState({ status: 'signed-in', user: { id: 'me-1', email: 'me@example.com' } })
    const el = page()
    await expect.poll(() => followButton(el)?.disabled).toBe(false)
    expect(followButton(el)!.getAttribute('aria-label')).toBe('Follow kai')
    await settle(() => userEvent.click(followButton(el)!))
    expect(follow).toHaveBeenCalledWith('me-1', OWNER)
    await expect.poll(() => followButton(el)?.textContent).toBe('Following')
    expect(followButton(el)!.getAttribute('aria-pressed')).toBe('true')
    await settle(() => userEvent.click(followButton(el)!))
    expect(unfollow).toHaveBeenCalledWith('me-1', OWNER)
    await expect.poll(() => followButton(el)?.textContent).toBe('Follow')
  })

  it('the artist sees no Follow on their own song; a visitor is asked to sign in', async () => {
    useSessionStore.setState({ status: 'signed-in', user: { id: OWNER, email: 'kai@example.com' } })
    const own = page()
    await expect.poll(() => own.querySelector('[data-testid="song-artist"]')?.textContent).toBe('kai')
    expect(followButton(own)).toBeNull()
    own.remove()

    useSessionStore.setState({ status: 'signed-out', user: null })
    const el = page()
    await expect.poll(() => followButton(el)).not.toBeNull()
    await settle(() => userEvent.click(followButton(el)!))
    expect(follow).not.toHaveBeenCalled()
    expect(useAuthModalStore.getState().openTab).toBe('login')
  })
})
