import { defineConfig, devices } from '@playwright/test'
import { E2E_PORT as PORT, E2E_SERVER_ENV, e2eDataDir } from './tests/e2e/support/anon-key.ts'
import { launchOptions } from './tests/e2e/support/browser.ts'

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // One worker more than the two cores on CI: journeys that wait on real time (a listening threshold,
  // two listeners 10 s apart) leave a core idle. 332 s against 353 s with two, 144 of 144 passing.
  workers: process.env.CI ? 3 : undefined,
  // Playwright's own template: two more tries on CI, where two browsers share two cores. A retried
  // test is reported as flaky (docs/benchmarks.md lists them per run), never hidden.
  retries: process.env.CI ? 2 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report keeps each test's duration for scripts/slowest-tests.ts (docs/benchmarks.md).
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }], ...(process.env.CI ? [['html', { open: 'never' }] as const] : [])],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace streams screencast frames and DOM snapshots for the whole test: on two cores
    // that cost most of a core for every test. A failure is traced on its retry.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: launchOptions(),
    // The app's service worker precaches about 3 MB of the build on a page's first visit: only the
    // offline spec (tests/e2e/offline.spec.ts) lets it install, the others test the app without it.
    serviceWorkers: 'block',
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: launchOptions() } }],
  webServer: {
    // The production build, served by the same server `npm start` uses, on a throwaway data folder
    // (whose own JWT secret signs the anon key the page carries: tests/e2e/support/anon-key.ts).
    command: `tsx supabase/local/serve.ts`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    // A fresh data folder loads the cached migrated cluster (or migrates from nothing, once per machine).
    timeout: 180_000,
    env: {
      PORT: String(PORT),
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      LOCAL_DATA_DIR: e2eDataDir(),
      LOCAL_DATA_RESET: '1',
      // The embedded chain is started only by the spec that mints (mint.spec.ts runs a server of its own).
      LOCAL_CHAIN: 'off',
      ...E2E_SERVER_ENV,
    },
  },
})
