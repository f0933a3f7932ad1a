import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { EVERY_ROUTE, expectFitsViewport } from './support/every-route.ts'
import { freshIdentity, signUpByApi } from './support/session.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { register } from './support/auth.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { BAR_ROUTES, expectBarAtBottom, restorePausedSong } from './support/player-bar.ts'

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
async function visitEveryRoute(page: Page, watch: Watch, routes: string[], alsoCheck: (path: string) => Promise<void> = async () => {}) {
  for (const path of routes) {
    await test.step(path, async () => {
      // The previous document is gone (its late requests cancelled) before this load is watched.
      await page.goto('about:blank')
      watch.nextLoad()
      const before = watch.problems.length
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await page.waitForLoadState('networkidle')
      expect(watch.problems.slice(before), `problems on ${path}`).toEqual([])
      await alsoCheck(path)
    })
  }
}

// The /app pages a visitor opens, with the heading each must show inside the app layout.
const APP_PAGES: Record<string, RegExp> = {
  '/app': /My Profile/,
  '/app/home': /My Profile/,
  '/app/library': /Your Library/,
  '/app/playlists': /Playlists/,
  '/app/remix': /Remix Studio/,
  '/app/create': /Music Studio/,
  '/app/studio': /Music Studio/,
  '/app/comments': /Comments & Earn/,
  '/app/admin': /Admin/,
  '/app/settings': /Settings/,
  '/app/governance': /Governance/,
  '/app/mint': /NFT Minting Studio/,
  '/app/wallet': /Crypto Wallet/,
  '/app/stream': /CUBE Radio/,
  '/app/listen': /Listen to Earn/,
  '/app/sharing': /Share & Earn/,
  '/app/sharing/profile': /Share & Earn/,
}
const ROUTES: string[] = [...EVERY_ROUTE, ...Object.keys(APP_PAGES).filter((path) => !EVERY_ROUTE.includes(path))]

// The sweep runs as a few tests of a share of the routes each, so the two workers split it and no
// test runs longer than the gate allows (90 s): together they still visit every route.
const SHARES = 3
const share = (n: number, routes: readonly string[] = ROUTES, shares = SHARES): string[] => routes.filter((_, i) => i % shares === n)
// The signed-in pass adds an axe scan on most pages: one share more.
const SIGNED_IN_SHARES = 4

// One pass over every route, signed out, does what used to be three sweeps (console-clean,
// responsive at 1280 px, routes.spec's page per /app route): a page load per route is most of the
// cost, not the checks. responsive.spec keeps the 375 px sweep.
test.describe('signed out at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 812 } })
  for (let n = 0; n < SHARES; n++) {
    test(
      `every route loads with a clean console and no failed request, fits a 1280 px screen, and each /app page renders ` +
        `inside the app layout, signed out (share ${n + 1} of ${SHARES})`,
      async ({ page }) => {
        test.setTimeout(90_000)
        await visitEveryRoute(page, watchProblems(page), share(n), async (path) => {
          await expectFitsViewport(page, 1280)
          const heading = APP_PAGES[path]
          if (heading) {
            await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
            await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
          }
        })
      },
    )
  }
})

// The signed-in pass, with a song restored paused, also checks the player bar at 1280 px where a page
// has one (responsive.spec.ts does it at 375 px): at the bottom in its full form, covering nothing,
// and the page axe clean.
test.describe('signed in at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } })
  for (let n = 0; n < SIGNED_IN_SHARES; n++) {
    test(
      `every route loads with a clean console and no failed request, signed in; where a page has a player, the bar is at ` +
        `the bottom covering nothing, axe clean (share ${n + 1} of ${SIGNED_IN_SHARES})`,
      async ({ page }) => {
        test.setTimeout(90_000)
        const watch = watchProblems(page)
        const me = await signUpByApi(page, { prefix: 'clean', wallet: false })
        await restorePausedSong(page)
        await page.goto('/app')
        await expect(page.getByTestId('account-email')).toBeVisible()
        await page.waitForLoadState('networkidle')
        expect(watch.problems, 'problems while the signed-in app starts (and creates the wallet)').toEqual([])
        const bars = new Set(BAR_ROUTES.map((p) => p.replace('{me}', me.username)))
        // Every route, and the user's own profile (a real one, beside the unknown user's page).
        const routes = share(n, [...ROUTES, `/user/${me.username}`], SIGNED_IN_SHARES)
        await visitEveryRoute(page, watch, routes, async (path) => {
          if (!bars.has(path)) return
          await expectBarAtBottom(page, path, 'full')
          await expectNoSeriousA11yViolations(page)
        })
      },
    )
  }
})

test('an unknown address shows the not-found page and notes it as information, not as an error', async ({ page }) => {
  const watch = watchProblems(page)
  const infos: string[] = []
  page.on('console', (m) => m.type() === 'info' && infos.push(m.text()))
  await page.goto('/no-such-page-e2e')
  await expect(page.getByRole('heading', { level: 1, name: 'Track not found in the metaverse' })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(watch.problems).toEqual([])
  expect(infos.some((t) => t.includes('[router] 404: no page at /no-such-page-e2e'))).toBe(true)
})

test('registering an e-mail that already has an account says so, with a clean console and no failed request', async ({ page, request }) => {
  const { email } = freshIdentity('held')
  const held = await request.post('/auth/v1/signup', {
    headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
    data: { email, password: 'a-long-enough-password', data: { username: freshIdentity('held').username } },
  })
  expect(held.status()).toBe(200)
  const watch = watchProblems(page)
  await page.goto('/app/home')
  await page.waitForLoadState('networkidle')
  await register(page, freshIdentity('again').username, email, 'another-long-password')
  await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('User already registered')
  await page.waitForLoadState('networkidle')
  expect(watch.problems).toEqual([])
})
