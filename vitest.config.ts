import { defineConfig } from 'vitest/config'

// Node-side tests: unit tests beside their source (`*.test.ts` in src/, workers/, audio-worklets/,
// scripts/) and the backend integration suite in tests/backend. Browser-side tests (real
// OfflineAudioContext, worklets) live in tests/browser and run through vitest.browser.config.ts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'workers/**/*.test.ts', 'audio-worklets/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/backend/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
})
