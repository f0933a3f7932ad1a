import { beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { OFFLINE_MEDIA_CACHE } from '../../config/offline.ts'
import { usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { startOfflineSync, syncOffline, useOfflineStore } from '../../domain/collection/offline-store.ts'
import { OfflineToggle } from './OfflineToggle.tsx'

// "Available offline" keeps a playlist's songs (audio and cover)
// in the offline cache the service worker answers from, follows the playlist as it changes, says
// how far it has come and what failed in words, and lets the files go when switched off.
const [a, b, c] = SAMPLE_SONGS as [(typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0], (typeof SAMPLE_SONGS)[0]]
const kept = async () => (await (await caches.open(OFFLINE_MEDIA_CACHE)).keys()).map((r) => new URL(r.url).pathname).sort()
const status = (el: HTMLElement) => el.querySelector('[data-testid="offline-status"]')?.textContent
const playlist = () => usePlaylistStore.getState().playlists.find((p) => p.id === 'pl-offline')!

beforeEach(async () => {
  await caches.delete(OFFLINE_MEDIA_CACHE)
  useOfflineStore.setState({ playlistIds: [], progress: {} })
  usePlaylistStore.setState({ playlists: [{ id: 'pl-offline', name: 'Road Trip', songs: [a, b] }] })
})

describe('Available offline', () => {
  it('saves every song of the playlist, keeps songs added later, and lets the files go when switched off', async () => {
    startOfflineSync()
    const el = render(<OfflineToggle playlist={playlist()} />)
    expect(status(el)).toBe('Save its songs on this device to play them with no connection.')
    await settle(() => userEvent.click(el.querySelector('[role="switch"]')!))
    await expect.poll(() => status(el)).toBe('Available offline: all 2 songs play with no connection.')
    expect(el.querySelector('[role="switch"]')?.getAttribute('aria-checked')).toBe('true')
    expect(await kept()).toEqual([a.audioUrl, a.image, b.audioUrl, b.image].sort())
    // The whole file is kept: the player decodes it as it would from the network.
    const audio = await (await caches.open(OFFLINE_MEDIA_CACHE)).match(new URL(a.audioUrl, location.href).href)
    expect(audio?.status).toBe(200)
    expect((await audio!.arrayBuffer()).byteLength).toBeGreaterThan(100_000)

    usePlaylistStore.getState().addSong('pl-offline', c)
    await expect.poll(kept).toEqual([a.audioUrl, a.image, b.audioUrl, b.image, c.audioUrl, c.image].sort())
    usePlaylistStore.getState().removeSong('pl-offline', a.id)
    await expect.poll(kept).toEqual([b.audioUrl, b.image, c.audioUrl, c.image].sort())

    await settle(() => userEvent.click(el.querySelector('[role="switch"]')!))
    await expect.poll(kept).toEqual([])
    expect(status(el)).toBe('Save its songs on this device to play them with no connection.')
  })

  it('says in words which songs could not be saved and keeps the others', async () => {
    const missing = { ...c, id: 'gone', title: 'Gone Song', audioUrl: '/audio/samples/no-such-file.mp3' }
    usePlaylistStore.setState({ playlists: [{ id: 'pl-offline', name: 'Road Trip', songs: [a, missing] }] })
    const el = render(<OfflineToggle playlist={playlist()} />)
    await settle(() => userEvent.click(el.querySelector('[role="switch"]')!))
    await expect.poll(() => status(el)).toBe('1 of 2 songs available offline. 1 not saved: "Gone Song": the file is missing on the server')
    expect(await kept()).toContain(a.audioUrl)
  })

  it('a song already on the device (the listener’s own track) needs no copy', async () => {
    const own = { ...c, id: 'mine', title: 'My Take', audioUrl: 'idb:mine', image: 'blob:whatever' }
    usePlaylistStore.setState({ playlists: [{ id: 'pl-offline', name: 'Road Trip', songs: [own] }] })
    useOfflineStore.setState({ playlistIds: ['pl-offline'] })
    await syncOffline()
    expect(useOfflineStore.getState().progress['pl-offline']).toEqual({ saved: 1, total: 1, busy: false, problem: null })
    expect(await kept()).toEqual([])
  })
})
