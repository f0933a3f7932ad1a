import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import type { ReactNode } from 'react'
import { renderWithBackend } from '../../../tests/component/render.tsx'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { catalogueRow } from '../../../tests/component/catalogue-row.ts'
import type { CatalogueRow } from '../../backend/publishing.ts'
import SongPage from './SongPage.tsx'

// Remix lineage: a published remix's page says "Remix of …" with a link to its source,
// and the source's page lists its remixes. The server records the source (record_remix_source,
// tests/backend/remix-lineage.test.ts); this is what the page makes of it.

const ORIGINAL = catalogueRow({ id: 'pub-orig', title: 'Night Drive', slug: 'night-drive', artist: 'kai' })
const REMIX = catalogueRow({ id: 'pub-remix', title: 'Night Drive (Remix)', slug: 'night-drive-remix', artist: 'mo', remix_of: 'pub-orig' })
let songs: CatalogueRow[] = []
let lineageFails = false

// Partial mocks: the page's other imports still find every export of these modules.
const publishingFakes = {
  fetchSongBySlug: vi.fn(async (slug: string) => songs.find((s) => s.slug === slug) ?? null),
  fetchSongById: vi.fn(async (id: string) => {
    if (lineageFails) throw new Error('offline')
    return songs.find((s) => s.id === id) ?? null
  }),
  fetchRemixesOf: vi.fn(async (id: string) => {
    if (lineageFails) throw new Error('offline')
    return songs.filter((s) => s.remix_of === id)
  }),
}
const profileFakes = {
  fetchProfile: vi.fn(async () => null),
}
const commentsFakes = {
  countSongComments: vi.fn(async () => 0),
  subscribeSongComments: vi.fn(() => () => undefined),
}
const server = fakeBackend({ publishing: publishingFakes, profile: profileFakes, comments: commentsFakes })
const render = (ui: ReactNode) => renderWithBackend(ui, server.backend)

const page = (slug: string) =>
  render(
    <MemoryRouter initialEntries={[`/song/${slug}`]}>
      <Routes>
        <Route path="/song/:slug" element={<SongPage />} />
      </Routes>
    </MemoryRouter>,
  )

beforeEach(() => {
  songs = [ORIGINAL, REMIX]
  lineageFails = false
})

describe('the song page’s lineage', () => {
  it('a remix names its source with a link to the source’s page', async () => {
    const el = page('night-drive-remix')
    await expect.poll(() => el.querySelector('[data-testid="song-remix-of"]')?.textContent).toBe('Remix of Night Drive by kai')
    expect(el.querySelector('[data-testid="song-remix-of"] a')!.getAttribute('href')).toBe('/song/night-drive')
    expect(el.querySelector('[data-testid="song-remixes"]')).toBeNull()
  })

  it('the source lists its remixes, each a link, and names no source of its own', async () => {
    songs.push(
      catalogueRow({ id: 'pub-remix-2', title: 'Night Drive (Slow)', slug: 'night-drive-slow', artist: 'ana', remix_of: 'pub-orig' }),
    )
    const el = page('night-drive')
    await expect.poll(() => el.querySelector('[data-testid="song-remixes"] h2')?.textContent).toBe('Remixes (2)')
    const links = [...el.querySelectorAll('[data-testid="song-remixes"] li')].map((li) => [
      li.textContent,
      li.querySelector('a')!.getAttribute('href'),
    ])
    expect(links).toEqual([
      ['Night Drive (Remix) by mo', '/song/night-drive-remix'],
      ['Night Drive (Slow) by ana', '/song/night-drive-slow'],
    ])
    expect(el.querySelector('[data-testid="song-remix-of"]')).toBeNull()
  })

  it('a song with no lineage shows neither; a source the visitor may not see (a private creator’s) is not named', async () => {
    songs = [ORIGINAL]
    const plain = page('night-drive')
    await expect.poll(() => plain.querySelector('[data-testid="song-page"]')).not.toBeNull()
    expect(plain.querySelector('[data-testid="song-remixes"]')).toBeNull()
    songs = [REMIX]
    const hidden = page('night-drive-remix')
    await expect.poll(() => hidden.querySelector('[data-testid="song-page"]')).not.toBeNull()
    expect(hidden.querySelector('[data-testid="song-remix-of"]')).toBeNull()
  })

  it('when the lineage cannot be read, the song still shows', async () => {
    lineageFails = true
    const el = page('night-drive-remix')
    await expect.poll(() => el.querySelector('#song-title')?.textContent).toBe('Night Drive (Remix)')
    expect(el.querySelector('[data-testid="song-remix-of"]')).toBeNull()
    expect(el.querySelector('[role="alert"]')).toBeNull()
  })
})
