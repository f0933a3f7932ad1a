import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { withoutStudies } from './vitest.studies.ts'
import type { Plugin } from 'vite'
import tailwindcss from '@tailwindcss/vite'
import { playwright } from '@vitest/browser-playwright'
import { launchOptions } from './tests/e2e/support/browser.ts'
import { ISOLATION_HEADERS } from './src/config/isolation-headers.ts'
import { soundfontBankPlugin } from './scripts/soundfont-bank-plugin.ts'

// Browser-side tests: real Chromium (OfflineAudioContext, AudioWorklet), run by `npm run test:unit`
// after the Node config. Same Chromium and flags as the Playwright e2e suite.
/**
 * standardized-audio-context's addModule wraps a worklet's source in a function and hoists only
 * the import statements found at its very start. Vitest's dev server puts a runner shim and our
 * header comments before the imports, so here (tests only) the shim is dropped (worklets make no
 * dynamic imports) and every single-line import is moved to the top. A production build bundles
 * the worklet into one import-free file, so the app itself never needs this.
 */
const hoistWorkletImports: Plugin = {
  name: 'cube:hoist-worklet-imports',
  enforce: 'post',
  transform(code, id) {
    if (!id.includes('worker_file')) return null
    const body = code.replace(/^\s*globalThis\.__vitest_browser_runner__\s*=\s*\{[^}]*\};?\s*$/m, '')
    const imports: string[] = []
    const rest = body.replace(/^import\s[^\n]*?["'][^"'\n]+["'];?[ \t]*$/gm, (line) => {
      imports.push(line.replace(/;?\s*$/, ';'))
      return ''
    })
    return { code: imports.join('\n') + '\n' + rest.replace(/^\s*;/, ''), map: null }
  },
}

export default defineConfig({
  // Tailwind so that a component test importing src/styles/index.css measures the real layout.
  plugins: [hoistWorkletImports, tailwindcss(), soundfontBankPlugin()],
  // Cross-origin isolated like every server of the app, so the engine's SharedArrayBuffer paths are the ones tested.
  server: { headers: { ...ISOLATION_HEADERS } },
  worker: { format: 'es' },
  // Every package the app and its tests import, pre-bundled up front: one found mid-run (on a
  // fresh clone, with no cache) makes Vite reload the page, and the files already loaded keep
  // another copy of React.
  optimizeDeps: {
    include: [
      '@dnd-kit/core',
      '@radix-ui/react-slider',
      '@soundtouchjs/core',
      '@supabase/supabase-js',
      '@tanstack/react-query',
      '@xstate/react',
      'comlink',
      'ethers',
      'fflate',
      'jsqr',
      'lib0/decoding',
      'lib0/encoding',
      'pitchy',
      'qrcode',
      'react',
      'react/jsx-dev-runtime',
      'react/jsx-runtime',
      'react-dom',
      'react-dom/client',
      'react-router-dom',
      'siwe',
      'sonner',
      'spessasynth_core',
      'standardized-audio-context',
      'tone',
      'wavesurfer.js',
      'web-audio-beat-detector',
      'webm-muxer',
      'xstate',
      'y-protocols/awareness',
      'y-protocols/sync',
      'yjs',
      'zustand',
      'zustand/middleware',
      'zustand/react/shallow',
    ],
  },
  test: {
    // Engine checks in tests/browser; component tests (*.browser.test.tsx) beside the screens they test.
    include: ['tests/browser/**/*.test.ts', 'src/**/*.browser.test.tsx'],
    exclude: withoutStudies(['**/node_modules/**']),
    testTimeout: 60_000,
    // Vitest's default here is one page at a time (cores - 1): one renderer busy, the other core idle.
    // A page per core took the tier from 90 s to 57 s on this 2-core machine (docs/benchmarks.md).
    maxWorkers: availableParallelism(),
    reporters: ['default', 'json', ['./scripts/test-budgets-reporter.ts', { outputFile: 'reports/budgets-browser.json' }]],
    outputFile: { json: 'reports/vitest-browser.json' },
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: launchOptions() }),
      instances: [{ browser: 'chromium' }],
      api: { port: Number(process.env.VITEST_BROWSER_PORT ?? 63315) },
    },
  },
})
