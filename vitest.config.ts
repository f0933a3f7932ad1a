import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { withoutStudies } from './vitest.studies.ts'

// Node-side tests: unit tests beside their source (`*.test.ts` in src/, workers/, audio-worklets/, dsp/,
// scripts/) and the backend integration suite in tests/backend. Browser-side tests (real
// OfflineAudioContext, worklets) live in tests/browser and run through vitest.browser.config.ts.
export default defineConfig({
  test: {
    environment: 'node',
    // Every run also leaves each test's duration and budget for scripts/slowest-tests.ts (docs/benchmarks.md).
    reporters: ['default', 'json', ['./scripts/test-budgets-reporter.ts', { outputFile: 'reports/budgets-node.json' }]],
    outputFile: { json: 'reports/vitest-node.json' },
    testTimeout: 30_000,
    // Vitest's default on a 2-core machine is one worker (cores - 1): the second core sat idle. One
    // worker more than cores fills the time backend tests wait on their servers: on this 2-core
    // machine the tier took 198 s with 2 workers, 179 s with 3 and 184 s with 4 (same commit, same hour).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The unit files run first, then the backend suites: mixed in one queue, the backend's big
          // files were sorted first and the slow unit files made a long tail (187 s; in groups 135 s).
          sequence: { groupOrder: 0 },
          include: [
            'src/**/*.test.{ts,tsx}',
            'workers/**/*.test.ts',
            'audio-worklets/**/*.test.ts',
            'dsp/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: withoutStudies(['**/node_modules/**', 'src/**/*.browser.test.tsx']),
        },
      },
      {
        extends: true,
        test: {
          name: 'backend',
          sequence: { groupOrder: 1 },
          include: ['tests/backend/**/*.test.ts'],
          exclude: withoutStudies(['**/node_modules/**']),
          // Migrates one PGlite cluster per run; in-memory test servers start from its dump.
          globalSetup: ['tests/backend/support/global-setup.ts'],
          // Each suite starts servers of its own and mocks no module, so the suites share their worker
          // processes instead of importing the whole server (and warming PGlite) again per file: the
          // whole tier went from 186 s and 303 CPU-s to 135 s and 209 CPU-s (docs/benchmarks.md).
          isolate: false,
        },
      },
    ],
  },
})
