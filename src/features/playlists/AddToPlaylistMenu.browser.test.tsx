import { beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { render, settle } from '../../../tests/component/render.tsx'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { defaultPlaylists, PLAYLIST_NAME_EMPTY, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { AddToPlaylistMenu } from './AddToPlaylistMenu.tsx'

// The menu offered only the existing playlists and no way to start one; an
// empty name did nothing visible. Now every playlist and "New playlist…", named in the menu.

const song = SAMPLE_SONGS[4]!
const items = (el: HTMLElement) => [...el.querySelectorAll('[role="menuitem"]')].map((b) => b.textContent?.trim())
const byText = (el: HTMLElement, text: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.includes(text))!

beforeEach(() => usePlaylistStore.setState({ playlists: [...defaultPlaylists(), { id: 'pl-x', name: 'Night Drive', songs: [] }] }))

describe('AddToPlaylistMenu', () => {
  it('offers every playlist and "New playlist…"; an empty name is refused in words; a name creates it with the song', async () => {
    const el = render(<AddToPlaylistMenu song={song} />)
    await settle(() => userEvent.click(el.querySelector('button[aria-haspopup="menu"]')!))
    expect(items(el)).toEqual(['Favorite Tracks', 'Synthwave Mix', 'Night Drive', 'New playlist…'])

    await settle(() => userEvent.click(byText(el, 'New playlist…')))
    await settle(() => userEvent.click(byText(el, 'Create and add')))
    expect(el.querySelector('[role="alert"]')?.textContent).toBe(PLAYLIST_NAME_EMPTY)
    expect(usePlaylistStore.getState().playlists).toHaveLength(3)

    await settle(() => userEvent.fill(el.querySelector<HTMLInputElement>('input[aria-label="New playlist name"]')!, 'Rainy Days'))
    await settle(() => userEvent.click(byText(el, 'Create and add')))
    const created = usePlaylistStore.getState().playlists.find((p) => p.name === 'Rainy Days')
    expect(created?.songs.map((s) => s.id)).toEqual([song.id])
    expect(el.querySelector('[role="menu"]')).toBeNull()
  })
})
