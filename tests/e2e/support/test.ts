import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'

/**
 * Playwright's `test`, closing at the end of every test each browser context the test opened itself
 * (`browser.newContext()`), passed or failed. Playwright closes only its own `page`'s context; a
 * second listener's page left open kept playing music, or the radio, in the worker's browser for the
 * rest of the run and slowed every later test (a clean-clone run found two such pages 17 minutes on).
 */
export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts())
      await use()
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => undefined)),
      )
    },
    { auto: true },
  ],
})
