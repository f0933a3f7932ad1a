import { expect, test, type Page } from '@playwright/test'
import { signUpByApi } from './support/session.ts'
import { APP_ROUTES, TOP_ROUTES, appLink } from '../../src/config/routes.ts'

// Every route of the one route table, with its parameters given real values.
const concrete = (path: string): string =>
  path
    .replace('/track/:id', '/track/no-such-track-e2e') // an unknown id: the broken-link page
    .replace('whitepaper/:section', 'whitepaper/executive_summary')
    .replace('/song/:slug', '/song/neon-drift') // a built-in song's page
    .replace('/artist/:slug', '/artist/grid-runners')
    .replace('/user/:username', '/user/no-such-user-e2e') // an unknown user: the not-found page
const ROUTES: string[] = [...TOP_ROUTES.map((r) => concrete(r.path)), ...APP_ROUTES.map((r) => concrete(appLink(r)))]

const mainHeading = (page: Page) => page.getByRole('heading', { level: 1 }).first()

async function expectFitsViewport(page: Page, width: number) {
  const widths = await page.evaluate(() => ({ html: document.documentElement.scrollWidth, body: document.body.scrollWidth }))
  expect(widths.html, 'document scroll width').toBeLessThanOrEqual(width)
  expect(widths.body, 'body scroll width').toBeLessThanOrEqual(width)
  const heading = mainHeading(page)
  const box = (await heading.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  // The heading's own text is not cut (no content wider than its box).
  const clipped = await heading.evaluate((el) => el.scrollWidth > el.clientWidth + 1)
  expect(clipped, 'heading text overflows its box').toBe(false)
}

// One step per route: a page per route is most of the cost, not the checks. The 1280 px sweep is
// part of console-clean.spec.ts's signed-out pass (the same check, on the same page loads).
for (const width of [375]) {
  test.describe(`every route at ${width} px`, () => {
    test.use({ viewport: { width, height: 812 } })
    test(`every route fits a ${width} px screen`, async ({ page }) => {
      test.setTimeout(90_000)
      for (const path of ROUTES) {
        await test.step(`${path} fits a ${width} px screen`, async () => {
          await page.goto(path)
          await expect(mainHeading(page)).toBeVisible()
          await expectFitsViewport(page, width)
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

  // Issue 26 item 11: signed in, Wallet and Settings sat under the account box until scrolled to.
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

for (const [width, height] of [
  [375, 812],
  [1280, 800],
] as const) {
  test.describe(`floating player at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } })

    // The pages where the button used to sit on text ('13/20', 'TRACKS'), and the other long ones.
    test('the floating player button covers no text once a long page is scrolled to the end', async ({ page }) => {
      for (const path of ['/app/home', '/app/wallet', '/app/library', '/app/playlists', '/app/listen']) {
        await test.step(path, async () => {
          await page.goto(path)
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
          await page.waitForLoadState('networkidle')
          const button = page.getByRole('button', { name: /^Open player/ })
          await expect(button).toBeVisible()
          // Scrolled again on every check: a page still filling in (the profile after its data) grows below.
          await expect
            .poll(() =>
              page.evaluate(() => {
                window.scrollTo(0, document.documentElement.scrollHeight)
                return Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight
              }),
            )
            .toBe(true)
          const b = (await button.boundingBox())!
          // Every piece of text in the main area (an element with its own non-blank text node).
          const covered = await page.evaluate((b) => {
            const hits: string[] = []
            for (const el of document.querySelectorAll('main#main *')) {
              const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '')
              if (!own) continue
              for (const r of el.getClientRects()) {
                if (r.width === 0 || r.height === 0) continue
                if (b.x < r.right && r.left < b.x + b.width && b.y < r.bottom && r.top < b.y + b.height)
                  hits.push((el.textContent ?? '').trim().slice(0, 40))
              }
            }
            return hits
          }, b)
          expect(covered, `text under the floating player button ${JSON.stringify(b)} on ${path}`).toEqual([])
          // The reserved room is at least the button's height plus its margin, at every width.
          const room = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('main#main')!).paddingBottom))
          expect(room).toBeGreaterThanOrEqual(b.height + (page.viewportSize()!.height - (b.y + b.height)))
        })
      }
    })
  })
}

// Issue 26 item 7: at 375 px the Listen page cut every title to one letter, playlists to "Ne…",
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
