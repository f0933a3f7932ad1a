import { expect, type Page } from '@playwright/test'
import { APP_ROUTES, appLink } from '../../../src/config/routes.ts'

/**
 * Every page that has a player bar: each /app route and the public song and profile pages (the
 * landing page, the pitch deck and Now Playing have none). `{me}` stands for the signed-in user.
 */
export const BAR_ROUTES: readonly string[] = [
  '/app',
  ...APP_ROUTES.filter((r) => !r.redirect && !r.path.includes(':')).map((r) => appLink(r)),
  '/app/whitepaper/executive_summary',
  '/song/neon-drift',
  '/user/{me}',
]

const RESTORED_PLAYER = JSON.stringify({
  queue: [
    {
      id: 'neon-drift',
      title: 'Neon Drift',
      artist: 'Synthwave Collective',
      duration: '1:25',
      image: '/images/covers/neon-drift.svg',
      audioUrl: '/audio/samples/neon-drift.mp3',
    },
  ],
  currentId: 'neon-drift',
  position: 10,
  volume: 80,
})

/**
 * Every page of this tab starts with a song restored paused, as after a reload mid-listen, so the
 * bar shows everything it can (cover, title link, like, enabled transport). Call before navigating.
 */
export async function restorePausedSong(page: Page): Promise<void> {
  await page.addInitScript((saved) => {
    if (!localStorage.getItem('cube.player.v1')) localStorage.setItem('cube.player.v1', saved)
  }, RESTORED_PLAYER)
}

/**
 * The bar is at the viewport's bottom in its `layout` form, and nothing of the page lies under it
 * once scrolled to the end (the floating button used to sit on rows).
 */
export async function expectBarAtBottom(page: Page, path: string, layout: 'full' | 'compact'): Promise<void> {
  const bar = page.getByRole('region', { name: 'Player' })
  await expect(bar, path).toBeVisible()
  await expect(bar).toHaveAttribute('data-layout', layout)
  await expect(bar.getByTestId('bar-title')).toHaveText('Neon Drift')
  const viewport = page.viewportSize()!
  // Scrolled to the end and measured in one go, again on every check: a page still filling in (the
  // profile after its data, its playlists and achievements) grows below between two separate steps.
  const measure = () =>
    page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight)
      const bar = document.querySelector('[data-testid="player-bar"]')!.getBoundingClientRect()
      const main = document.querySelector('main#main')!.getBoundingClientRect()
      return { barTop: bar.top, barBottom: bar.bottom, mainBottom: main.bottom }
    })
  await expect
    .poll(async () => {
      const g = await measure()
      return Math.abs(g.barBottom - viewport.height) <= 1 && g.mainBottom <= g.barTop + 0.5
    })
    .toBe(true)
  const geometry = await measure()
  expect(Math.abs(geometry.barBottom - viewport.height), `the bar sits at the bottom on ${path}`).toBeLessThanOrEqual(1)
  expect(geometry.mainBottom, `the page ends above the bar on ${path}`).toBeLessThanOrEqual(geometry.barTop + 0.5)
}
