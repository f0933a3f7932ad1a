import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

// Every /app page's heading inside the app layout is checked in console-clean.spec.ts's signed-out
// sweep (one page load per route for all the per-route checks).

test('landing page has its tiles and links', async ({ page }) => {
  // Hold the lazily loaded generator chunk back to see the page as it first paints.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/LandingGenerator-[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/')
  // The generator arriving must not push the buttons below it around (a click could miss).
  const explore = page.getByRole('link', { name: 'Explore the Platform' })
  await expect(page.getByText('Loading the generator…')).toBeVisible()
  const before = (await explore.boundingBox())!.y
  release()
  await expect(page.getByRole('button', { name: 'Generate AI Track' })).toBeVisible()
  expect(Math.abs((await explore.boundingBox())!.y - before)).toBeLessThan(2)
  for (const tile of ['Create', 'Listen', 'Earn']) await expect(page.getByRole('heading', { name: tile, exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Explore the Platform' })).toHaveAttribute('href', '/app/home')
  await expect(page.getByRole('link', { name: 'Read Whitepaper' })).toHaveAttribute('href', '/app/whitepaper/executive_summary')
  await expect(page.getByRole('link', { name: 'Make Live Music' })).toHaveAttribute('href', '/app/create')
  await page.getByRole('link', { name: 'Explore the Platform' }).click()
  await expect(page).toHaveURL(/\/app\/home$/)
  await expect(page.getByRole('heading', { level: 1, name: /My Profile/ })).toBeVisible()
})

test('unknown paths show the not-found page and log a 404', async ({ page }) => {
  const logs: string[] = []
  page.on('console', (m) => logs.push(m.text()))
  await page.goto('/no/such/track')
  await expect(page.getByRole('heading', { name: 'Track not found in the metaverse' })).toBeVisible()
  await expect(page.getByRole('link', { name: /home/i }).first()).toHaveAttribute('href', '/')
  await expect(page.getByRole('link', { name: /dashboard/i })).toHaveAttribute('href', '/app/home')
  expect(logs.some((l) => l.includes('404') && l.includes('/no/such/track'))).toBe(true)
  await page.goto('/app/nothing-here')
  await expect(page.getByRole('heading', { name: 'Track not found in the metaverse' })).toBeVisible()
})

test('every server response carries the cross-origin isolation headers', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin')
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('require-corp')
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true)
})

for (const path of ['/', '/app/home', '/no/such/page']) {
  test(`no serious accessibility violations on ${path}`, async ({ page }) => {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    // The page itself, not its loading fallback (on a loaded run the route's code can still be arriving).
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await expectNoSeriousA11yViolations(page)
  })
}
