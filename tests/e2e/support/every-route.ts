import { expect, type Locator, type Page } from '@playwright/test'
import { APP_ROUTES, TOP_ROUTES, appLink } from '../../../src/config/routes.ts'

// Every route of the one route table, with its parameters given real values: the sweeps of
// responsive.spec.ts and console-clean.spec.ts visit these.
const concrete = (path: string): string =>
  path
    .replace('/track/:id', '/track/no-such-track-e2e') // an unknown id: the broken-link page
    .replace('whitepaper/:section', 'whitepaper/executive_summary')
    .replace('/song/:slug', '/song/neon-drift') // a built-in song's page
    .replace('/artist/:slug', '/artist/grid-runners')
    .replace('/user/:username', '/user/no-such-user-e2e') // an unknown user: the not-found page

export const EVERY_ROUTE: readonly string[] = [...TOP_ROUTES.map((r) => concrete(r.path)), ...APP_ROUTES.map((r) => concrete(appLink(r)))]

export const mainHeading = (page: Page): Locator => page.getByRole('heading', { level: 1 }).first()

/** No horizontal scrolling, and the main heading lies inside the screen with its text uncut. */
export async function expectFitsViewport(page: Page, width: number): Promise<void> {
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
