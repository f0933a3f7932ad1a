import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

test('Playlists: create, rename, add, duplicate refusal, remove, favourite, delete; kept after reload', async ({ page }) => {
  await page.goto('/app/playlists')
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Your playlists' })
  await expect(nav.getByRole('button')).toHaveCount(2)
  await expect(nav).toContainText('Favorite Tracks')
  await expect(nav).toContainText('Synthwave Mix')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('button', { name: 'Create playlist' }).click()
  // Said beside the field (and in a toast), so an empty name never does nothing silently.
  await expect(page.locator('#new-playlist-error')).toHaveText('Playlist name cannot be empty')
  await page.getByLabel('New playlist name').fill('Night Drive')
  await page.getByRole('button', { name: 'Create playlist' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Night Drive' })).toBeVisible()
  await expect(nav.getByRole('button')).toHaveCount(3)

  await page.getByRole('button', { name: 'Rename' }).click()
  await page.getByLabel('Playlist name', { exact: true }).fill('Midnight Drive')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Midnight Drive' })).toBeVisible()
  await expect(nav).toContainText('Midnight Drive')

  const addForm = page.getByLabel('Track to add')
  await addForm.selectOption({ label: 'Orbital Haze — Ambient Spaces' })
  await page.getByRole('button', { name: 'Add track' }).click()
  await addForm.selectOption({ label: 'Neon Drift — Synthwave Collective' })
  await page.getByRole('button', { name: 'Add track' }).click()
  const tracks = page.getByRole('list', { name: 'Tracks in Midnight Drive' })
  await expect(tracks.getByRole('listitem')).toHaveCount(2)
  await addForm.selectOption({ label: 'Orbital Haze — Ambient Spaces (in playlist)' })
  await page.getByRole('button', { name: 'Add track' }).click()
  await expect(page.getByText('Already in playlist')).toBeVisible()
  await expect(tracks.getByRole('listitem')).toHaveCount(2)

  await tracks.getByRole('button', { name: 'Remove Orbital Haze from Midnight Drive' }).click()
  await expect(tracks.getByRole('listitem')).toHaveCount(1)
  await expect(tracks).toContainText('Neon Drift')

  // A visitor's favourites start empty: the toggle turns Neon Drift on, then off again.
  const fav = tracks.getByRole('button', { name: 'Favourite Neon Drift' })
  await expect(fav).toHaveAttribute('aria-pressed', 'false')
  await fav.click()
  await expect(fav).toHaveAttribute('aria-pressed', 'true')
  await fav.click()
  await expect(fav).toHaveAttribute('aria-pressed', 'false')
  await nav.getByRole('button', { name: /Favorite Tracks/ }).click()
  // Empty again: no list, or none with Neon Drift in it.
  await expect(page.getByRole('list', { name: 'Tracks in Favorite Tracks' }).getByText('Neon Drift')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0) // favourites cannot be deleted

  await page.reload()
  await expect(nav).toContainText('Midnight Drive')
  await nav.getByRole('button', { name: /Midnight Drive/ }).click()
  await expect(page.getByRole('list', { name: 'Tracks in Midnight Drive' }).getByRole('listitem')).toHaveCount(1)
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Delete' }).click()
  await expect(nav).not.toContainText('Midnight Drive')
  await expect(nav.getByRole('button')).toHaveCount(2)
  await page.reload()
  await expect(nav.getByRole('button')).toHaveCount(2)
})

for (const [label, stored] of [
  ['unparseable JSON', '{"state": {"playlists": [ nope'],
  ['a wrong shape', JSON.stringify({ state: { playlists: [{ id: 7, name: null, songs: 'x' }] }, version: 1 })],
  ['an unknown version', JSON.stringify({ state: { playlists: 'x' }, version: 99 })],
] as const) {
  test(`stored playlists with ${label} fall back to the defaults and the page works`, async ({ page }) => {
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('cube-playlists', value)
        sessionStorage.setItem('seeded', '1')
      }
    }, stored)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto('/app/playlists')
    const nav = page.getByRole('navigation', { name: 'Your playlists' })
    await expect(nav.getByRole('button')).toHaveCount(2)
    await expect(nav).toContainText('Favorite Tracks')
    await page.getByLabel('New playlist name').fill('Recovered')
    await page.getByRole('button', { name: 'Create playlist' }).click()
    await expect(nav.getByRole('button')).toHaveCount(3)
    await page.reload()
    await expect(nav).toContainText('Recovered')
    expect(errors).toEqual([])
  })
}

test.describe('long playlist names', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test(
    'a 200-character name is refused or limited; an 80-character name keeps the page within the viewport and shows the ' +
      'full name as a title',
    async ({ page }) => {
      await page.goto('/app/playlists')
      const nav = page.getByRole('navigation', { name: 'Your playlists' })
      await expect(nav.getByRole('button')).toHaveCount(2)
      const input = page.getByLabel('New playlist name')

      // The field stops at 80 characters.
      await expect(input).toHaveAttribute('maxlength', '80')
      await input.fill('a'.repeat(200))
      expect((await input.inputValue()).length).toBeLessThanOrEqual(80)

      // A client that gets past the field (no maxlength) is refused with a clear message.
      await input.evaluate((el) => el.removeAttribute('maxlength'))
      await input.fill('b'.repeat(200))
      await page.getByRole('button', { name: 'Create playlist' }).click()
      await expect(page.locator('#new-playlist-error')).toHaveText('Playlist name must be at most 80 characters')
      await expect(nav.getByRole('button')).toHaveCount(2)

      const name = `${'Long playlist name '.repeat(5)}`.slice(0, 80)
      expect(name).toHaveLength(80)
      await input.fill(name)
      await page.getByRole('button', { name: 'Create playlist' }).click()
      const heading = page.getByTestId('playlist-detail-name')
      await expect(heading).toHaveText(name.trim())
      await expect(heading).toHaveAttribute('title', name.trim())
      await expect(nav.getByRole('button', { name: /Long playlist name/ })).toHaveAttribute('title', name.trim())

      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }))
      expect(widths.viewport).toBe(1280)
      expect(widths.scroll).toBeLessThanOrEqual(1280)
    },
  )
})
