import { describe, expect, it, vi } from 'vitest'
import { SONG_NOT_SHAREABLE, songShareItem } from './song-share.ts'

// Now Playing's Share shares the song page. The song is resolved to its page's slug and
// handed to copyShareLink like every other share button (share-item.test.ts proves the token, the
// store and the refusals), so Now Playing's link is credited by the same rules.

const slugOf = vi.fn(async (id: string) => (id === 'pub-1' ? 'my-first-song' : id === 'neon-drift' ? 'neon-drift' : null))

describe('songShareItem', () => {
  it('a published or catalogue song is its page by slug, keeping its id as the other name', async () => {
    expect(
      await songShareItem({ id: 'pub-1', audioUrl: '/storage/v1/object/public/songs/x.webm', title: 'My First Song' }, slugOf),
    ).toEqual({
      type: 'song',
      id: 'my-first-song',
      altId: 'pub-1',
      title: 'My First Song',
    })
  })

  it('a track only on this device, or unknown to the server, is refused in words', async () => {
    slugOf.mockClear()
    await expect(songShareItem({ id: 'my-take', audioUrl: 'idb:my-take', title: 'Take' }, slugOf)).rejects.toThrow(SONG_NOT_SHAREABLE)
    await expect(songShareItem({ id: 'b', audioUrl: 'blob:http://x/1', title: 'Blob' }, slugOf)).rejects.toThrow(SONG_NOT_SHAREABLE)
    expect(slugOf).not.toHaveBeenCalled()
    await expect(songShareItem({ id: 'gone', audioUrl: '/audio/x.mp3', title: 'Gone' }, slugOf)).rejects.toThrow(SONG_NOT_SHAREABLE)
  })

  it('a server failure reaches the caller as it came', async () => {
    const refusal = new Error('network down')
    await expect(
      songShareItem({ id: 'neon-drift', audioUrl: '/audio/samples/neon-drift.mp3', title: 'Neon Drift' }, () => Promise.reject(refusal)),
    ).rejects.toBe(refusal)
  })
})
