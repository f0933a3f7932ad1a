import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ShareLink } from '../../backend/sharing.ts'
import { useShareLinksStore } from './share-links-store.ts'
import { SONG_NOT_SHAREABLE, songShareLink, type SongShareDeps } from './song-share.ts'

// Issue 24: Now Playing's Share copies the song page's address. Signed in, it carries the user's
// own copy-link token (share_create, as Share & Earn makes it), so an opening by someone else is
// credited by the server's rules and the link shows in the user's list at once.

const ORIGIN = 'https://cube.test'
const link: ShareLink = {
  id: 'l1',
  token: 'a'.repeat(64),
  item_type: 'song',
  item_id: 'pub-1',
  platform: 'copy_link',
  amount: 5,
  status: 'pending',
  shared_at: '2026-11-26T10:00:00Z',
  credited_at: null,
}

const deps = (over: Partial<SongShareDeps> = {}): SongShareDeps => ({
  slugOf: vi.fn(async (id: string) => (id === 'pub-1' ? 'my-first-song' : id === 'neon-drift' ? 'neon-drift' : null)),
  createLink: vi.fn(async () => link),
  signedIn: () => true,
  ...over,
})

beforeEach(() => useShareLinksStore.getState().clear())

describe('songShareLink', () => {
  it('signed in: the page by its slug with the user’s copy-link token, recorded in the links store', async () => {
    const d = deps()
    const share = await songShareLink({ id: 'pub-1', audioUrl: '/storage/v1/object/public/songs/x.webm' }, ORIGIN, d)
    expect(share).toEqual({ url: `${ORIGIN}/song/my-first-song?s=${'a'.repeat(64)}`, tokened: true, amount: 5 })
    expect(d.createLink).toHaveBeenCalledWith('my-first-song')
    expect(useShareLinksStore.getState().links.l1?.platform).toBe('copy_link')
  })

  it('signed out: the plain page address, and no link is asked for', async () => {
    const d = deps({ signedIn: () => false })
    expect(await songShareLink({ id: 'neon-drift', audioUrl: '/audio/samples/neon-drift.mp3' }, ORIGIN, d)).toEqual({
      url: `${ORIGIN}/song/neon-drift`,
      tokened: false,
    })
    expect(d.createLink).not.toHaveBeenCalled()
  })

  it('a track only on this device, or unknown to the server, is refused in words', async () => {
    const d = deps()
    await expect(songShareLink({ id: 'my-take', audioUrl: 'idb:my-take' }, ORIGIN, d)).rejects.toThrow(SONG_NOT_SHAREABLE)
    expect(d.slugOf).not.toHaveBeenCalled()
    await expect(songShareLink({ id: 'gone', audioUrl: '/audio/x.mp3' }, ORIGIN, d)).rejects.toThrow(SONG_NOT_SHAREABLE)
    expect(d.createLink).not.toHaveBeenCalled()
  })

  it('a server refusal reaches the caller as it came', async () => {
    const refusal = Object.assign(new Error('too_many_share_links'), { details: 'You made 200 new share links today' })
    const d = deps({ createLink: vi.fn(async () => Promise.reject(refusal)) })
    await expect(songShareLink({ id: 'neon-drift', audioUrl: '/audio/samples/neon-drift.mp3' }, ORIGIN, d)).rejects.toBe(refusal)
    expect(useShareLinksStore.getState().links).toEqual({})
  })
})
