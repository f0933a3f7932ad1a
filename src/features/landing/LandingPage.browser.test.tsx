import { beforeEach, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { render, settle } from '../../../tests/component/render.tsx'
import { SAMPLE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import LandingPage from './LandingPage.tsx'

// The landing page offers a way to start listening at once: one click plays the first song and
// opens Listen to Earn.

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}

beforeEach(() => usePlayerStore.setState({ currentSong: null, queue: [], isPlaying: false, resumeOffered: false }))

it('"Start Listening" plays the first song and opens Listen to Earn', async () => {
  const el = render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  )
  await settle()
  const start = [...el.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Start Listening')!
  await settle(() => userEvent.click(start))
  expect(usePlayerStore.getState()).toMatchObject({ currentSong: { id: SAMPLE_SONGS[0]!.id }, isPlaying: true })
  expect(el.querySelector('[data-testid="where"]')?.textContent).toBe('/app/listen')
})
