import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { signUpByApi } from './support/session.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { BAR_ROUTES, expectBarAtBottom, restorePausedSong } from './support/player-bar.ts'
import { EVERY_ROUTE, expectFitsViewport, mainHeading } from './support/every-route.ts'

// One step per route: a page per route is most of the cost, not the checks. The 1280 px sweep is
// part of console-clean.spec.ts's signed-out pass (the same check, on the same page loads).
for (const width of [375]) {
  test.describe(`every route at ${width} px`, () => {
    test.use({ viewport: { width, height: 812 } })
    test(`every route fits a ${width} px screen, with a clean console`, async ({ page }) => {
      test.setTimeout(90_000)
      // What DevTools would show as a problem of the page itself (requests are console-clean.spec's
      // at 1280 px; here a page's late requests are cut off by the next route's load).
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console.error: ${m.text()}`)
      })
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`))
      for (const path of EVERY_ROUTE) {
        await test.step(`${path} fits a ${width} px screen`, async () => {
          const before = problems.length
          await page.goto(path)
          await expect(mainHeading(page)).toBeVisible()
          await expectFitsViewport(page, width)
          expect(problems.slice(before), `${path} at ${width} px`).toEqual([])
        })
      }
    })
  })
}

/** The last nav link can be scrolled into view, is really on top at its centre, and navigates. */
async function expectLastNavItemReachable(page: Page) {
  const nav = page.getByTestId('sidebar')
  const last = nav.getByRole('link').last()
  const label = (await last.getAttribute('aria-label')) ?? (await last.innerText()).trim()
  expect(label).toBe('Settings')
  await last.scrollIntoViewIfNeeded()
  const box = (await last.boundingBox())!
  const viewport = page.viewportSize()!
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height)
  const onTop = await last.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return !!hit && el.contains(hit)
  })
  expect(onTop, 'last nav item is not covered or clipped').toBe(true)
  await last.click()
  await expect(page).toHaveURL(/\/app\/settings$/)
}

test.describe('sidebar at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  // Signed in, Wallet and Settings sat under the account box until scrolled to.
  test('signed in, every nav item is on screen without scrolling, above the account box', async ({ page }) => {
    await signUpByApi(page, { prefix: 'side' })
    await page.goto('/app/home')
    await expect(page.getByTestId('account-chip')).toBeVisible()
    const nav = page.getByTestId('sidebar')
    const chipTop = (await page.getByTestId('account-chip').boundingBox())!.y
    const links = nav.getByRole('list').getByRole('link')
    expect(await links.count()).toBe(14)
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!
      expect(box.y + box.height, await link.innerText()).toBeLessThanOrEqual(chipTop)
      expect(
        await link.evaluate((el) =>
          el.contains(document.elementFromPoint(el.getBoundingClientRect().left + 20, el.getBoundingClientRect().top + 10)),
        ),
      ).toBe(true)
    }
  })
})

test.describe('sidebar on a short screen (1280×480)', () => {
  test.use({ viewport: { width: 1280, height: 480 } })

  test('open: the last nav item scrolls into view and is clickable', async ({ page }) => {
    await page.goto('/app/home')
    await expectLastNavItemReachable(page)
  })

  test('icon rail: the last nav item scrolls into view and is clickable', async ({ page }) => {
    await page.goto('/app/home')
    await page.getByRole('button', { name: 'Collapse sidebar' }).click()
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'rail')
    await expectLastNavItemReachable(page)
  })
})

// The player bar at 375 px on every page that has one, in its compact form, axe clean (the 1280 px
// pass is part of console-clean.spec.ts's signed-in sweep, on the same page loads).
// A page load and an axe pass per route: a few routes per test keep each test inside the 90 s gate on a busy machine.
const BAR_SHARES = 6

test.describe('player bar at 375×812', () => {
  test.use({ viewport: { width: 375, height: 812 } })
  for (let n = 0; n < BAR_SHARES; n++) {
    test(`every page with a player has the bar at the bottom, covering nothing, axe clean (share ${n + 1} of ${BAR_SHARES})`, async ({
      page,
    }) => {
      test.setTimeout(90_000)
      const me = await signUpByApi(page, { prefix: 'bar' })
      await restorePausedSong(page)
      for (const path of BAR_ROUTES.filter((_, i) => i % BAR_SHARES === n).map((p) => p.replace('{me}', me.username))) {
        await test.step(path, async () => {
          await page.goto(path)
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
          await expectBarAtBottom(page, path, 'compact')
          await expectNoSeriousA11yViolations(page)
        })
      }
    })
  }
})

test.describe('player bar at 375×812: the drawer and the sheet', () => {
  test.use({ viewport: { width: 375, height: 812 } })

  test('the menu drawer lies over the bar; Expand opens the sheet (axe clean), Escape closes it', async ({ page }) => {
    await restorePausedSong(page)
    await page.goto('/app/library')
    const bar = page.getByRole('region', { name: 'Player' })
    await expect(bar.getByTestId('bar-title')).toHaveText('Neon Drift')
    await page.getByRole('button', { name: 'Open menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Navigation menu' })
    await expect(drawer).toBeVisible()
    // What is on top where the bar is: the drawer's backdrop, not the bar.
    const onTop = await page.evaluate(() => {
      const r = document.querySelector('[data-testid="player-bar"]')!.getBoundingClientRect()
      const hit = document.elementFromPoint(r.right - 10, r.top + r.height / 2)
      return !!hit && !!hit.closest('[aria-label="Navigation menu"]')
    })
    expect(onTop, 'the drawer covers the bar').toBe(true)
    await drawer.getByRole('button', { name: 'Close menu' }).first().click()
    await expect(drawer).toBeHidden()

    await bar.getByRole('button', { name: 'Expand player' }).click()
    const sheet = page.getByRole('dialog', { name: 'Now Playing' })
    await expect(sheet.getByRole('slider', { name: 'Seek' })).toBeVisible()
    await expect(sheet.getByRole('list', { name: 'Queued tracks' }).getByRole('listitem')).toHaveCount(1)
    await expectNoSeriousA11yViolations(page)
    await page.keyboard.press('Escape')
    await expect(sheet).toBeHidden()
    await expect(bar.getByRole('button', { name: 'Expand player' })).toBeFocused()
  })
})

// At 375 px the Listen page cut every title to one letter, playlists to "Ne…",
// and the delegate field shrank to 40 px.
test.describe('rows keep room for their text at 375×812', () => {
  test.use({ viewport: { width: 375, height: 812 } })

  test('Listen and playlist titles are readable; the delegate field keeps its width', async ({ page, browser }) => {
    const widths = (selector: string) =>
      page.locator(selector).evaluateAll((els) => els.slice(0, 4).map((el) => Math.round(el.getBoundingClientRect().width)))
    await page.goto('/app/listen')
    await expect(page.getByTestId('rec-title').first()).toBeVisible()
    for (const w of await widths('[data-testid="rec-title"]')) expect(w).toBeGreaterThanOrEqual(120)
    await page.goto('/app/playlists')
    // Favorite Tracks starts empty (nothing is liked until the listener likes it): the sample playlist has rows.
    await page.getByRole('button', { name: /^Synthwave Mix/ }).click()
    await expect(page.getByTestId('song-summary-title').first()).toBeVisible()
    for (const w of await widths('[data-testid="song-summary-title"]')) expect(w).toBeGreaterThanOrEqual(120)
    // The delegate panel is a signed-in user's.
    const member = await browser.newPage({ viewport: { width: 375, height: 812 } })
    await signUpByApi(member, { prefix: 'narrow' })
    await member.goto('/app/governance')
    await expect(member.locator('#delegate-username')).toBeVisible()
    expect((await member.locator('#delegate-username').boundingBox())!.width).toBeGreaterThanOrEqual(160)
    await member.close()
  })
})
