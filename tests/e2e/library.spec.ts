import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

const cardTitles = (page: import('@playwright/test').Page) => page.getByTestId('track-card').locator('h3').allInnerTexts()

test('Library: search, genre chips on the artist text, grid/list toggle', async ({ page }) => {
  await page.goto('/app/library')
  await expect(page.getByRole('heading', { level: 1, name: 'Your Library' })).toBeVisible()
  await expect(page.getByTestId('track-card')).toHaveCount(5)

  const search = page.getByRole('searchbox', { name: 'Search your library' })
  await search.fill('neon')
  expect(await cardTitles(page)).toEqual(['Neon Drift'])
  await search.fill('LOFI beats') // artist text, any case
  expect(await cardTitles(page)).toEqual(['Rainy Terminal'])
  await search.fill('no such track')
  await expect(page.getByText('No tracks match "no such track".')).toHaveAttribute('role', 'status')
  await search.fill('')

  const chips = page.getByRole('group', { name: 'Filter by genre' })
  await expect(chips.getByRole('button')).toHaveText(['All', 'Synthwave', 'Chillwave', 'Electronic', 'Lofi', 'Ambient'])
  for (const [chip, title] of [
    ['Synthwave', 'Neon Drift'],
    ['Chillwave', 'Low Tide Memory'],
    ['Electronic', 'Circuit Breaker'],
    ['Lofi', 'Rainy Terminal'],
    ['Ambient', 'Orbital Haze'],
  ] as const) {
    await chips.getByRole('button', { name: chip }).click()
    await expect(chips.getByRole('button', { name: chip })).toHaveAttribute('aria-pressed', 'true')
    expect(await cardTitles(page)).toEqual([title])
  }
  await search.fill('neon')
  await expect(page.getByTestId('track-card')).toHaveCount(0) // Ambient + "neon"
  await chips.getByRole('button', { name: 'All' }).click()
  await expect(page.getByTestId('track-card')).toHaveCount(1)
  await search.fill('')

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
