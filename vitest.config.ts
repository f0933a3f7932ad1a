import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { withoutStudies } from './vitest.studies.ts'

// Node-side tests: unit tests beside their source (`*.test.ts` in src/, workers/, audio-worklets/, dsp/,
// scripts/) and the backend integration suite in tests/backend. Browser-side tests (real
// OfflineAudioContext, worklets) live in tests/browser and run through vitest.browser.config.ts.
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.{ts,tsx}',
      'workers/**/*.test.ts',
      'audio-worklets/**/*.test.ts',
      'dsp/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/backend/**/*.test.ts',
    ],
    exclude: withoutStudies(['**/node_modules/**', 'src/**/*.browser.test.tsx']),
    environment: 'node',
    // Every run also leaves its per-test durations for scripts/slowest-tests.ts (docs/benchmarks.md).
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest-node.json' },
    testTimeout: 30_000,
    // Migrates one PGlite cluster per run; in-memory test servers start from its dump.
    globalSetup: ['tests/backend/support/global-setup.ts'],
    // Vitest's default on a 2-core machine is one worker (cores - 1): the second core sat idle. One
    // worker more than cores fills the time backend tests wait on their servers: on this 2-core
    // machine the tier took 198 s with 2 workers, 179 s with 3 and 184 s with 4 (same commit, same hour).
    maxWorkers: availableParallelism() + 1,
  },
})
