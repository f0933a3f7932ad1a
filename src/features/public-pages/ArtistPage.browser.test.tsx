import { beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { render, settle } from '../../../tests/component/render.tsx'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import ArtistPage from './ArtistPage.tsx'

// A page per catalogue artist (/artist/{slug}) with every one of their songs.

const at = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/artist/:slug" element={<ArtistPage />} />
      </Routes>
    </MemoryRouter>,
  )

beforeEach(() => usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false }))

describe('ArtistPage', () => {
  it('shows a catalogue artist with every song of theirs; Play all plays the first and queues the rest', async () => {
    const el = at('/artist/pixel-bloom')
    const theirs = CATALOGUE_SONGS.filter((s) => s.artist === 'Pixel Bloom')
    expect(theirs.length).toBeGreaterThan(1)
    expect(el.querySelector('h1')?.textContent).toBe('Pixel Bloom')
    expect(document.title).toBe('Pixel Bloom · CUBE Music')
    const titles = [...el.querySelectorAll('[aria-label="Songs by Pixel Bloom"] [data-testid="song-summary-title"]')].map(
      (t) => t.textContent,
    )
    expect(titles).toEqual(theirs.map((s) => s.title))
    await settle(() => userEvent.click([...el.querySelectorAll('button')].find((b) => b.textContent?.includes('Play all'))!))
    expect(usePlayerStore.getState().currentSong?.id).toBe(theirs[0]!.id)
    expect(usePlayerStore.getState().queue.map((s) => s.id)).toEqual(theirs.map((s) => s.id))
  })

  it('an artist name with symbols has a plain slug; an unknown artist is the not-found page', () => {
    expect(at('/artist/wren-relay').querySelector('h1')?.textContent).toBe('Wren & Relay')
    const missing = at('/artist/nobody-at-all')
    expect(missing.querySelector('[data-testid="artist-page"]')).toBeNull()
    expect(missing.textContent).toContain('/artist/nobody-at-all')
  })
})
