import type { ReactNode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { MemoryRouter } from 'react-router-dom'
import '../../styles/index.css'
import { render, settle } from '../../../tests/component/render.tsx'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { defaultPlaylists, selectIsFavourite, usePlaylistStore } from '../../domain/collection/playlist-store.ts'
import { SlotsProvider } from '../../ui/slots.tsx'
import { BAR_ROOM_VAR, PlayerBar } from './PlayerBar.tsx'

// A persistent player bar at the bottom, as every major player has, instead of the
// floating button that covered rows. Wide: every control in the bar and the queue in a panel.
// At 375 px: a compact row and an Expand control opening a sheet with the rest. Nothing of the
// page is ever under the bar once scrolled to the end.

const neon = SAMPLE_SONGS.find((s) => s.id === 'neon-drift')!
const circuit = SAMPLE_SONGS.find((s) => s.id === 'circuit-breaker')!

/** CUBE Radio's controls come through a slot; this stands in for them. */
const slots = { StationMiniControls: () => <div data-testid="mini-station">CUBE Radio on air</div> }

/** The /app layout's column as AppLayout builds it: the page, then the bar at the column's end. */
function Layout({ rows = 3 }: { rows?: number }) {
  return (
    <MemoryRouter>
      <SlotsProvider slots={slots}>
        <div className="flex min-h-screen">
          <div className="flex min-w-0 flex-1 flex-col">
            <main id="main" className="min-w-0 flex-1 pb-8">
              {Array.from({ length: rows }, (_, i) => (
                <p key={i} className="h-24" data-testid="row">
                  Row {i + 1}
                </p>
              ))}
            </main>
            <PlayerBar />
          </div>
        </div>
      </SlotsProvider>
    </MemoryRouter>
  )
}

/** Renders, and lets the bar's first measure (a ResizeObserver callback, before the next frame) land inside act. */
async function mount(ui: ReactNode) {
  render(ui)
  await settle(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

const bar = () => page.getByRole('region', { name: 'Player' })
const inBar = (name: string) => bar().getByRole('button', { name, exact: true })
const q = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)

beforeEach(() => {
  usePlaylistStore.setState({ playlists: defaultPlaylists() })
  usePlayerStore.setState({
    currentSong: neon,
    queue: [neon, circuit],
    isPlaying: false,
    position: 17,
    duration: 85,
    volume: 80,
    resumeOffered: false,
  })
  window.scrollTo(0, 0)
})

describe('PlayerBar at 1280 px', () => {
  beforeEach(() => page.viewport(1280, 800))

  it('shows cover, title (to Now Playing), like, transport, progress with times, radio, queue and volume', async () => {
    await mount(<Layout />)
    await expect.poll(() => q('[data-testid="player-bar"]')?.getAttribute('data-layout')).toBe('full')
    const title = bar().getByRole('link', { name: 'Neon Drift' }).element()
    expect(title.getAttribute('href')).toBe('/now-playing')
    expect(q('[data-testid="bar-artist"]')?.textContent).toBe('Synthwave Collective')
    expect(q<HTMLImageElement>('[data-testid="player-bar"] img')?.src).toMatch(/neon-drift\.svg$/)
    for (const name of ['Previous track', 'Play', 'Next track', 'Like', 'Queue (2)']) expect(inBar(name).element(), name).toBeTruthy()
    expect(bar().getByRole('slider', { name: 'Seek' }).element()).toBeTruthy()
    expect(bar().getByRole('slider', { name: 'Volume' }).element()).toBeTruthy()
    expect(q('[data-testid="player-position"]')?.textContent).toBe('0:17')
    expect(q('[data-testid="player-duration"]')?.textContent).toBe('1:25')
    expect(q('[data-testid="player-bar"] [data-testid="mini-station"]')).not.toBeNull()
    // Transport acts on the store: Next moves to the next song.
    await settle(() => userEvent.click(inBar('Next track')))
    expect(usePlayerStore.getState().currentSong?.id).toBe('circuit-breaker')
    expect(q('[data-testid="bar-title"]')?.textContent).toBe('Circuit Breaker')
  })

  it('Like toggles the playing song in Favorite Tracks, and says so with aria-pressed', async () => {
    usePlayerStore.setState({ currentSong: circuit })
    await mount(<Layout />)
    const like = () => inBar('Like').element()
    expect(like().getAttribute('aria-pressed')).toBe('false')
    await settle(() => userEvent.click(like()))
    expect(selectIsFavourite('circuit-breaker')(usePlaylistStore.getState())).toBe(true)
    expect(like().getAttribute('aria-pressed')).toBe('true')
    await settle(() => userEvent.click(like()))
    expect(selectIsFavourite('circuit-breaker')(usePlaylistStore.getState())).toBe(false)
    expect(like().getAttribute('aria-pressed')).toBe('false')
  })

  it('the queue button opens the queue above the bar; Escape closes it and focus goes back to the button', async () => {
    await mount(<Layout />)
    const toggle = inBar('Queue (2)').element() as HTMLButtonElement
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(q('[data-testid="queue-panel"]')).toBeNull()
    await settle(() => userEvent.click(toggle))
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const panel = q('[data-testid="queue-panel"]')!
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id)
    const items = [...panel.querySelectorAll('[aria-label="Queued tracks"] li')].map((li) => li.textContent)
    expect(items.map((t) => t?.includes('Neon Drift') || t?.includes('Circuit Breaker'))).toEqual([true, true])
    // It opens upwards, inside the viewport, and the bar stays where it is.
    const panelBox = panel.getBoundingClientRect()
    const barBox = q('[data-testid="player-bar"]')!.getBoundingClientRect()
    expect(panelBox.bottom).toBeLessThanOrEqual(barBox.top)
    expect(panelBox.top).toBeGreaterThanOrEqual(0)
    // Playing from the queue works from the panel.
    await settle(() => userEvent.click(page.getByRole('button', { name: 'Play Circuit Breaker from queue' })))
    expect(usePlayerStore.getState().currentSong?.id).toBe('circuit-breaker')
    await settle(() => userEvent.keyboard('{Escape}'))
    expect(q('[data-testid="queue-panel"]')).toBeNull()
    expect(document.activeElement).toBe(toggle)
  })

  it('with nothing playing it says so, with a hint, and offers no like', async () => {
    usePlayerStore.setState({ currentSong: null, queue: [], position: 0, duration: 0 })
    await mount(<Layout />)
    expect(q('[data-testid="bar-title"]')?.textContent).toBe('Nothing playing')
    expect(q('[data-testid="bar-artist"]')?.textContent).toBe('Pick a track in your Library')
    expect(bar().getByRole('button', { name: 'Like' }).query()).toBeNull()
    expect((inBar('Play').element() as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('PlayerBar at 375 px', () => {
  beforeEach(() => page.viewport(375, 812))

  it('is a compact row: cover, title, like, play/pause, a progress line and Expand; the rest is not in the bar', async () => {
    await mount(<Layout />)
    await expect.poll(() => q('[data-testid="player-bar"]')?.getAttribute('data-layout')).toBe('compact')
    expect(bar().getByRole('link', { name: 'Neon Drift' }).element()).toBeTruthy()
    for (const name of ['Like', 'Play', 'Expand player']) expect(inBar(name).element(), name).toBeTruthy()
    const progress = bar().getByRole('progressbar', { name: 'Track progress' }).element()
    expect(progress.getAttribute('aria-valuenow')).toBe('20') // 17 s of 85
    expect(progress.getAttribute('aria-valuetext')).toBe('0:17 of 1:25')
    for (const name of ['Next track', 'Previous track']) expect(bar().getByRole('button', { name }).query(), name).toBeNull()
    expect(bar().getByRole('slider').query()).toBeNull()
    // It fits the screen: nothing sticks out to the right.
    const box = q('[data-testid="player-bar"]')!.getBoundingClientRect()
    expect(box.right).toBeLessThanOrEqual(375)
    for (const b of q('[data-testid="player-bar"]')!.querySelectorAll('button, a'))
      expect(b.getBoundingClientRect().right, b.textContent ?? '').toBeLessThanOrEqual(375)
    await settle(() => userEvent.click(inBar('Play')))
    expect(usePlayerStore.getState().isPlaying).toBe(true)
    expect(inBar('Pause').element()).toBeTruthy()
  })

  it('Expand opens a modal sheet with seek, all transport, volume, queue and the radio; Escape closes it', async () => {
    await mount(<Layout />)
    const expand = inBar('Expand player').element() as HTMLButtonElement
    expect(expand.getAttribute('aria-haspopup')).toBe('dialog')
    await settle(() => userEvent.click(expand))
    expect(expand.getAttribute('aria-expanded')).toBe('true')
    const sheet = page.getByRole('dialog', { name: 'Now Playing' })
    expect(sheet.element().getAttribute('aria-modal')).toBe('true')
    for (const name of ['Previous track', 'Play', 'Next track', 'Like', 'Collapse player'])
      expect(sheet.getByRole('button', { name, exact: true }).element(), name).toBeTruthy()
    for (const name of ['Seek', 'Volume']) expect(sheet.getByRole('slider', { name }).element(), name).toBeTruthy()
    expect(sheet.getByRole('list', { name: 'Queued tracks' }).element().children).toHaveLength(2)
    expect(sheet.getByTestId('mini-station').element()).toBeTruthy()
    expect(sheet.getByRole('link', { name: 'Open Now Playing' }).element().getAttribute('href')).toBe('/now-playing')
    // Focus moved in (on Collapse); the sheet's own controls act on the player.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Collapse player')
    await settle(() => userEvent.click(sheet.getByRole('button', { name: 'Next track' })))
    expect(usePlayerStore.getState().currentSong?.id).toBe('circuit-breaker')
    // The sheet lies above the bar and within the screen.
    const panel = sheet.element().getBoundingClientRect()
    expect(panel.bottom).toBeLessThanOrEqual(812 + 1)
    expect(panel.top).toBeGreaterThan(0)
    await settle(() => userEvent.keyboard('{Escape}'))
    expect(document.querySelector('[role="dialog"]')).toBeNull()
    expect(document.activeElement).toBe(expand)
  })
})

describe('after a reload that stopped a playing song (sound needs a click here)', () => {
  for (const [width, height] of [
    [375, 812],
    [1280, 800],
  ] as const) {
    it(`at ${width} px: "Resume at 0:17" resumes the song where it was, once; Dismiss takes the offer away`, async () => {
      await page.viewport(width, height)
      usePlayerStore.setState({ resumeOffered: true, isPlaying: false })
      await mount(<Layout />)
      const resume = bar().getByRole('button', { name: 'Resume at 0:17' })
      expect(resume.element().getBoundingClientRect().right).toBeLessThanOrEqual(width)
      await settle(() => userEvent.click(resume))
      expect(usePlayerStore.getState()).toMatchObject({ isPlaying: true, resumeOffered: false, position: 17 })
      expect(q('[data-testid="resume-after-reload"]')).toBeNull()
      await settle(() => usePlayerStore.setState({ isPlaying: false, resumeOffered: true }))
      await settle(() => userEvent.click(bar().getByRole('button', { name: 'Dismiss resume' })))
      expect(usePlayerStore.getState().resumeOffered).toBe(false)
      expect(q('[data-testid="resume-after-reload"]')).toBeNull()
    })
  }
})

describe('nothing is under the bar', () => {
  for (const [width, height] of [
    [375, 812],
    [1280, 800],
  ] as const) {
    it(`at ${width}×${height}: it stays at the viewport's bottom, and the page's last row ends above it`, async () => {
      await page.viewport(width, height)
      await mount(<Layout rows={30} />)
      const barEl = q('[data-testid="player-bar"]')!
      await expect.poll(() => document.documentElement.style.getPropertyValue(BAR_ROOM_VAR)).toBe(`${barEl.offsetHeight}px`)
      // Mid-page it is on screen at the bottom edge.
      window.scrollTo(0, 300)
      await settle()
      expect(Math.round(barEl.getBoundingClientRect().bottom)).toBe(height)
      // At the end, the last row (and main's own bottom edge) is above the bar's top.
      window.scrollTo(0, document.documentElement.scrollHeight)
      await settle()
      const rows = document.querySelectorAll('[data-testid="row"]')
      const last = rows[rows.length - 1]!.getBoundingClientRect()
      const barTop = barEl.getBoundingClientRect().top
      expect(last.bottom).toBeLessThanOrEqual(barTop)
      expect(q('main#main')!.getBoundingClientRect().bottom).toBeLessThanOrEqual(barTop + 0.5)
      expect(Math.round(barEl.getBoundingClientRect().bottom)).toBe(height)
    })
  }
})
