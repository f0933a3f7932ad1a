import { expect, test, type Page } from '@playwright/test'
import { APP_ROUTES, TOP_ROUTES, appLink } from '../../src/config/routes.ts'
import { register } from './support/auth.ts'

// Every route of the one route table, with its parameters given real values (as responsive.spec).
const concrete = (path: string): string =>
  path.replace('/track/:id', '/track/no-such-track-e2e').replace('whitepaper/:section', 'whitepaper/executive_summary').replace('/song/:slug', '/song/neon-drift').replace('/user/:username', '/user/no-such-user-e2e')
const ROUTES: string[] = [...TOP_ROUTES.map((r) => concrete(r.path)), ...APP_ROUTES.map((r) => concrete(appLink(r)))]

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

interface Watch {
  problems: string[]
  /** A new page load begins: what the previous document still had in flight is not its problem. */
  nextLoad: () => void
}

/**
 * Everything that would show in DevTools as a problem: console errors, uncaught errors, failed or
 * refused requests. A request the previous document had in flight when it was replaced is
 * cancelled by the browser (net::ERR_ABORTED), not by us: each request is tagged with the load
 * that issued it.
 */
function watchProblems(page: Page): Watch {
  const problems: string[] = []
  let load = 0
  const issuedIn = new WeakMap<object, number>()
  page.on('request', (r) => issuedIn.set(r, load))
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`))
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? ''
    if (error === 'net::ERR_ABORTED' && (issuedIn.get(r) ?? load) < load) return
    problems.push(`failed ${r.method()} ${r.url()}: ${error}`)
  })
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`)
  })
  return { problems, nextLoad: () => void load++ }
}

/** Loads each route fresh (a full page load, as a user opening a link) and lets it settle. */
async function visitEveryRoute(page: Page, watch: Watch) {
  for (const path of ROUTES) {
    // The previous document is gone (its late requests cancelled) before this load is watched.
    await page.goto('about:blank')
    watch.nextLoad()
    const before = watch.problems.length
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(watch.problems.slice(before), `problems on ${path}`).toEqual([])
  }
}

test('every route loads with a clean console and no failed request, signed out', async ({ page }) => {
  test.setTimeout(120_000)
  await visitEveryRoute(page, watchProblems(page))
})

test('every route loads with a clean console and no failed request, signed in', async ({ page }) => {
  test.setTimeout(120_000)
  const watch = watchProblems(page)
  await page.goto('/app')
  await register(page, `clean_${unique()}`, `clean-${unique()}@cube.test`, 'a-long-enough-password')
  await expect(page.getByRole('dialog')).toBeHidden()
  await page.waitForLoadState('networkidle')
  expect(watch.problems, 'problems while registering').toEqual([])
  await visitEveryRoute(page, watch)
})
