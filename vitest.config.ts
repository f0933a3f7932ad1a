import { defineConfig } from 'vitest/config'

// Node-side unit tests. Browser-side tests (real OfflineAudioContext, worklets) live in
// tests/browser and run through vitest.browser.config.ts.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/backend/**/*.test.ts', 'audio-worklets/**/*.test.ts', 'workers/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
  },
})
