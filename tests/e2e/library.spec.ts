import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { masterLevel, requireShippedSamples } from './player-fixtures.ts'
import { CATALOGUE_SONGS, SAMPLE_SONGS } from '../../src/lib/catalogue/sample-songs.ts'

const cardTitles = (page: import('@playwright/test').Page) => page.getByTestId('track-card').locator('h3').allInnerTexts()

test('Library: every catalogue song; search finds one beyond the five samples and plays it', async ({ page }) => {
  requireShippedSamples()
  await page.goto('/app/library')
  await expect(page.getByRole('heading', { level: 1, name: 'Your Library' })).toBeVisible()
  // The whole catalogue (and any song another spec published on this server).
  await expect.poll(() => page.getByTestId('track-card').count()).toBeGreaterThanOrEqual(CATALOGUE_SONGS.length)

  // Kernel Panic is in the catalogue, not among the five sample songs.
  const song = CATALOGUE_SONGS.find((s) => s.id === 'kernel-panic')!
  expect(SAMPLE_SONGS.some((s) => s.id === song.id)).toBe(false)
  const search = page.getByRole('searchbox', { name: 'Search your library' })
  await search.fill('KERNEL pan')
  await expect.poll(async () => (await cardTitles(page))[0]).toBe('Kernel Panic')
  await page.getByRole('button', { name: 'Play Kernel Panic', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Pause Kernel Panic', exact: true })).toBeVisible()
  await expect.poll(() => masterLevel(page), { timeout: 15_000 }).toBeGreaterThan(0.01)
  await page.getByRole('button', { name: 'Pause Kernel Panic', exact: true }).click()

  await search.fill('no such track')
  await expect(page.getByText('No tracks match "no such track".')).toHaveAttribute('role', 'status')
})

test('Library: genre chips from the songs’ genres, grid/list toggle remembered, accessible', async ({ page }) => {
  test.setTimeout(90_000) // two axe passes over the page
  await page.goto('/app/library')
  const search = page.getByRole('searchbox', { name: 'Search your library' })
  const chips = page.getByRole('group', { name: 'Filter by genre' })
  await chips.getByRole('button', { name: 'Folk', exact: true }).click()
  await expect(chips.getByRole('button', { name: 'Folk', exact: true })).toHaveAttribute('aria-pressed', 'true')
  const folk = CATALOGUE_SONGS.filter((s) => s.genre === 'folk').map((s) => s.title)
  await expect.poll(async () => (await cardTitles(page)).sort()).toEqual(folk.sort())
  await chips.getByRole('button', { name: 'All', exact: true }).click()
  await expect.poll(() => page.getByTestId('track-card').count()).toBeGreaterThanOrEqual(CATALOGUE_SONGS.length)

  const list = page.getByTestId('track-list')
  await expect(list).toHaveAttribute('data-layout', 'grid')
  const gridHeight = (await page.getByTestId('track-card').first().boundingBox())!.height
  await page.getByRole('button', { name: 'List view' }).click()
  await expect(list).toHaveAttribute('data-layout', 'list')
  await expect(page.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true')
  const rowHeight = (await page.getByTestId('track-card').first().boundingBox())!.height
  expect(rowHeight).toBeLessThan(gridHeight / 2)
  await page.reload()
  await expect(page.getByTestId('track-list')).toHaveAttribute('data-layout', 'list') // remembered
  // Checked with a few cards: every card is alike, and axe over all of them takes a minute on two cores.
  await search.fill('neon')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Grid view' }).click()
  await expect(list).toHaveAttribute('data-layout', 'grid')
  await expectNoSeriousA11yViolations(page)
})

test('Library track cards: like, add to playlist (duplicate refused), add to queue', async ({ page }) => {
  await page.goto('/app/library')
  const like = page.getByRole('button', { name: 'Like Rainy Terminal' })
  await expect(like).toHaveAttribute('aria-pressed', 'false')
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')

  await page.getByRole('button', { name: 'Add Rainy Terminal to playlist' }).click()
  await page.getByRole('menuitem', { name: 'Synthwave Mix' }).click()
  await expect(page.getByText('Added "Rainy Terminal" to Synthwave Mix')).toBeVisible()
  await page.getByRole('button', { name: 'Add Rainy Terminal to playlist' }).click()
  await page.getByRole('menuitem', { name: 'Synthwave Mix' }).click()
  await expect(page.getByText('Already in playlist')).toBeVisible()

  await page.getByRole('link', { name: 'Playlists' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible()
  await page
    .getByRole('navigation', { name: 'Your playlists' })
    .getByRole('button', { name: /Synthwave Mix/ })
    .click()
  await expect(page.getByRole('list', { name: 'Tracks in Synthwave Mix' })).toContainText('Rainy Terminal')
  await page
    .getByRole('navigation', { name: 'Your playlists' })
    .getByRole('button', { name: /Favorite Tracks/ })
    .click()
  await expect(page.getByRole('list', { name: 'Tracks in Favorite Tracks' })).toContainText('Rainy Terminal')

  await page.getByRole('link', { name: 'Library' }).first().click()
  await page.getByRole('button', { name: 'Like Rainy Terminal' }).click()
  await expect(page.getByRole('button', { name: 'Like Rainy Terminal' })).toHaveAttribute('aria-pressed', 'false')
})
