import { beforeEach, describe, expect, it, vi } from 'vitest'
import { page as browserPage, userEvent } from 'vitest/browser'
import '../../styles/index.css'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { catalogueRow } from '../../../tests/component/catalogue-row.ts'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { useLibraryStore } from '../../domain/collection/library-store.ts'
import { usePublishedSongs } from '../../domain/collection/song-index.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import LibraryPage from './LibraryPage.tsx'

// The Library covers every song a listener can play (the 45 catalogue songs, the
// published songs the server shows them, their own uploads), searched by title, artist and genre,
// and browsed by genre and by artist.

const published = catalogueRow({ duration_seconds: 61.25 })
let server = fakeBackend()

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}
const page = () =>
  renderWithBackend(
    <MemoryRouter initialEntries={['/app/library']}>
      <Routes>
        <Route path="/app/library" element={<LibraryPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    server.backend,
  )
/** The app's header and the player bar at 375 px (51 and 57 px), which the page itself does not draw. */
const SHELL_PX = 56 + 64
const titles = (el: HTMLElement) => [...el.querySelectorAll('[data-testid="track-card"] h3')].map((h) => h.textContent)
const search = (el: HTMLElement) => el.querySelector<HTMLInputElement>('input[type="search"]')!
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)!
const tab = (el: HTMLElement, name: string) => [...el.querySelectorAll('[role="tab"]')].find((b) => b.textContent === name) as HTMLElement
const upload = {
  id: 'upload-1',
  title: 'Señal Débil',
  artist: 'Uploaded by you',
  duration: '0:42',
  image: '/u.svg',
  audioUrl: 'idb:upload-1',
}

beforeEach(() => {
  server = fakeBackend({ publishing: { fetchPublishedSongs: async () => [published] } })
  usePublishedSongs.setState({ rows: [], loadedFor: undefined, error: null })
  useLibraryStore.setState({ userTracks: [upload], view: 'grid' })
  usePlayerStore.setState({ currentSong: null, isPlaying: false })
})

describe('LibraryPage', () => {
  it('lists every playable song: the 45 catalogue songs, the published song and the upload', async () => {
    const el = page()
    await settle()
    await vi.waitFor(() => expect(titles(el)).toHaveLength(CATALOGUE_SONGS.length + 2))
    expect(titles(el)).toContain('Basement Tapes')
    expect(titles(el)[0]).toBe('Señal Débil')
    expect(server.calls).toEqual(['publishing.fetchPublishedSongs'])
  })

  it('searches by title, artist and genre, ignoring case and accents, best match first, and plays a found song', async () => {
    const el = page()
    await settle()
    const notSample = CATALOGUE_SONGS.find((s) => s.id === 'kernel-panic')!
    expect(SAMPLE_SONGS.some((s) => s.id === notSample.id)).toBe(false)
    await settle(() => userEvent.fill(search(el), 'KERNEL'))
    expect(titles(el)[0]).toBe('Kernel Panic')
    await settle(() => userEvent.fill(search(el), 'senal debil'))
    expect(titles(el)).toEqual(['Señal Débil'])
    await settle(() => userEvent.fill(search(el), 'grid runners'))
    expect(titles(el)).toEqual(CATALOGUE_SONGS.filter((s) => s.artist === 'Grid Runners').map((s) => s.title))
    await settle(() => userEvent.fill(search(el), 'metal'))
    expect(titles(el).sort()).toEqual(
      CATALOGUE_SONGS.filter((s) => s.genre === 'metal')
        .map((s) => s.title)
        .sort(),
    )
    await settle(() => userEvent.fill(search(el), 'no such song'))
    expect(el.querySelector('[role="status"]')?.textContent).toBe('No tracks match "no such song".')

    await settle(() => userEvent.fill(search(el), 'kernel panic'))
    await settle(() => userEvent.click(el.querySelector<HTMLButtonElement>('button[aria-label="Play Kernel Panic"]')!))
    expect(usePlayerStore.getState().currentSong?.id).toBe('kernel-panic')
  })

  it("at 375 px the genre chips are one row that scrolls sideways; the first song's play and title are on the first screen", async () => {
    await browserPage.viewport(375, 812)
    const el = page()
    await settle()
    await vi.waitFor(() => expect(titles(el).length).toBeGreaterThan(10))
    const chips = el.querySelector<HTMLElement>('[data-testid="genre-chips"]')!
    const buttons = [...chips.querySelectorAll('button')]
    expect(buttons.length).toBeGreaterThan(10)
    // One row: every chip at the same height, the row as tall as one chip (and its scrollbar room).
    const tops = new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top)))
    expect(tops.size).toBe(1)
    expect(chips.getBoundingClientRect().height).toBeLessThan(buttons[0]!.getBoundingClientRect().height * 2)
    expect(chips.scrollWidth).toBeGreaterThan(chips.clientWidth)
    expect(chips.getBoundingClientRect().right).toBeLessThanOrEqual(375)
    // The first song follows the chips at once, its play button and title on the first screen
    // between the app's header and the player bar (SHELL_PX together).
    const chipsBottom = chips.getBoundingClientRect().bottom
    const first = el.querySelector<HTMLElement>('[data-testid="track-card"]')!
    expect(first.getBoundingClientRect().top - chipsBottom).toBeGreaterThanOrEqual(0)
    expect(first.getBoundingClientRect().top - chipsBottom).toBeLessThan(64)
    const play = first.querySelector<HTMLElement>('button[aria-label^="Play "]')!
    for (const part of [play, first.querySelector('h3')!]) expect(part.getBoundingClientRect().bottom + SHELL_PX).toBeLessThanOrEqual(812)
    // A chip out of sight still filters once scrolled to.
    const last = buttons.at(-1)!
    last.scrollIntoView()
    await settle(() => userEvent.click(last))
    expect(last.getAttribute('aria-pressed')).toBe('true')
    await browserPage.viewport(1280, 800)
  })

  it('browses by genre: a genre tile or chip shows exactly that genre’s songs, with the count', async () => {
    const el = page()
    await settle()
    await vi.waitFor(() => expect(titles(el)).toContain('Basement Tapes'))
    await settle(() => userEvent.click(tab(el, 'Genres')))
    const tiles = [...el.querySelectorAll('[aria-label="Genres"] button')].map((b) => b.textContent)
    expect(tiles).toContain('Hip-Hop5 songs')
    expect(tiles).toContain('Rock5 songs') // four catalogue songs and the published one
    await settle(() =>
      userEvent.click(
        [...el.querySelectorAll<HTMLElement>('[aria-label="Genres"] button')].find((b) => b.textContent?.startsWith('Rock'))!,
      ),
    )
    expect(tab(el, 'Songs').getAttribute('aria-selected')).toBe('true')
    expect(button(el, 'Rock').getAttribute('aria-pressed')).toBe('true')
    expect(titles(el).sort()).toEqual([...CATALOGUE_SONGS.filter((s) => s.genre === 'rock').map((s) => s.title), 'Basement Tapes'].sort())
    expect(el.querySelector('[role="status"]')?.textContent).toBe('5 songs in Rock')
    await settle(() => userEvent.click(button(el, 'Jazz')))
    expect(titles(el).sort()).toEqual(
      CATALOGUE_SONGS.filter((s) => s.genre === 'jazz')
        .map((s) => s.title)
        .sort(),
    )
    await settle(() => userEvent.click(button(el, 'All')))
    expect(titles(el)).toHaveLength(CATALOGUE_SONGS.length + 2)
  })

  it('browses by artist: a catalogue artist opens /artist/{slug}, a creator /user/{name}, cards link the artist too', async () => {
    const el = page()
    await settle()
    await vi.waitFor(() => expect(titles(el)).toContain('Basement Tapes'))
    expect(el.querySelectorAll('[data-testid="track-card"] a[href="/artist/grid-runners"]')).toHaveLength(2)
    expect(el.querySelectorAll('[data-testid="track-card"] a[href="/user/kai"]')).toHaveLength(1)
    await settle(() => userEvent.click(tab(el, 'Artists')))
    const links = [...el.querySelectorAll<HTMLAnchorElement>('[aria-label="Artists"] a')]
    expect(links.find((a) => a.textContent?.startsWith('Wren & Relay'))?.getAttribute('href')).toBe('/artist/wren-relay')
    expect(links.find((a) => a.textContent?.startsWith('kai'))?.getAttribute('href')).toBe('/user/kai')
    expect(links).toHaveLength(new Set(CATALOGUE_SONGS.map((s) => s.artist)).size + 1)
    await settle(() => userEvent.click(links.find((a) => a.textContent?.startsWith('Pixel Bloom'))!))
    expect(el.querySelector('[data-testid="where"]')?.textContent).toBe('/artist/pixel-bloom')
  })
})
