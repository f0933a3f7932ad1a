// The layering check must fail on wrong imports and stay quiet on right ones: each case lints a
// snippet as if it were the named file, with the project's own configuration (eslint.config.js).
// Run from the repository root by `npm run lint` (node --test tools/lint/*.test.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'

const root = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd: root, overrideConfigFile: fileURLToPath(new URL('eslint.config.js', import.meta.url)) })
const LAYER_RULES = new Set(['boundaries/dependencies', 'no-restricted-imports', 'no-restricted-syntax'])

async function layerErrors(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath })
  const fatal = result.messages.filter((m) => m.fatal)
  assert.deepEqual(fatal, [], `${filePath} did not parse`)
  return result.messages.filter((m) => LAYER_RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`)
}

const wrong = [
  [
    'engine importing a feature',
    'src/engine/bad.ts',
    "import { usePlayerStore } from '../features/player/index.ts'\nexport { usePlayerStore }\n",
    'boundaries/dependencies',
  ],
  [
    'a feature importing another feature’s internal file',
    'src/features/library/bad.ts',
    "import { songTags } from '../player/song-tags.ts'\nexport { songTags }\n",
    'boundaries/dependencies',
  ],
  [
    'a feature importing another feature through its index.ts',
    'src/features/library/bad.ts',
    "import { MiniPlayer } from '../player/index.ts'\nexport { MiniPlayer }\n",
    'boundaries/dependencies',
  ],
  [
    'the domain importing a feature',
    'src/domain/playback/bad.ts',
    "import { MiniPlayer } from '../../features/player/index.ts'\nexport { MiniPlayer }\n",
    'boundaries/dependencies',
  ],
  [
    'the domain importing a component of src/ui',
    'src/domain/playback/bad.ts',
    "import { Icon } from '../../ui/Icon.tsx'\nexport { Icon }\n",
    'boundaries/dependencies',
  ],
  [
    'a domain slice importing a slice above it (playback → economy)',
    'src/domain/playback/bad.ts',
    "import { useRewardStore } from '../economy/reward-store.ts'\nexport { useRewardStore }\n",
    'boundaries/dependencies',
  ],
  [
    'the lowest slice importing any other (session → collection)',
    'src/domain/session/bad.ts',
    "import { useLibraryStore } from '../collection/library-store.ts'\nexport { useLibraryStore }\n",
    'boundaries/dependencies',
  ],
  ['a component in the domain tier', 'src/domain/playback/bad.tsx', 'export const Bad = () => <p>no</p>\n', 'no-restricted-syntax'],
  [
    'the platform importing the domain',
    'src/backend/bad.ts',
    "import { useSessionStore } from '../domain/session/session-store.ts'\nexport { useSessionStore }\n",
    'boundaries/dependencies',
  ],
  [
    'a feature importing workers/ directly',
    'src/features/library/bad.ts',
    "import { computePeaks } from '../../../workers/peaks.ts'\nexport { computePeaks }\n",
    'boundaries/dependencies',
  ],
  [
    'a feature spawning a worker module directly',
    'src/features/library/bad.ts',
    "export const w = new Worker(new URL('../../../workers/peaks.worker.ts', import.meta.url), { type: 'module' })\n",
    'boundaries/dependencies',
  ],
  ['backend importing react', 'src/backend/bad.ts', "import { useState } from 'react'\nexport { useState }\n", 'no-restricted-imports'],
  [
    'engine importing react-dom/client',
    'src/engine/bad.ts',
    "import { createRoot } from 'react-dom/client'\nexport { createRoot }\n",
    'no-restricted-imports',
  ],
  ['sonner outside src/app', 'src/features/player/bad.tsx', "import { toast } from 'sonner'\nexport { toast }\n", 'no-restricted-imports'],
  [
    'the service worker importing app code beyond src/config',
    'service-worker/bad.ts',
    "import { notify } from '../src/lib/notify.ts'\nexport { notify }\n",
    'boundaries/dependencies',
  ],
  ['the app importing the service worker', 'src/app/bad.ts', "import '../../service-worker/sw.ts'\n", 'boundaries/dependencies'],
  [
    'a worklet importing src/',
    'audio-worklets/bad.ts',
    "import { notify } from '../src/lib/notify.ts'\nexport { notify }\n",
    'boundaries/dependencies',
  ],
  [
    'dsp/ importing a worklet kernel',
    'dsp/bad.ts',
    "import { Smoother } from '../audio-worklets/kernels/smoothing.ts'\nexport { Smoother }\n",
    'boundaries/dependencies',
  ],
  [
    'dsp/ importing a worker module',
    'dsp/bad.ts',
    "import { computePeaks } from '../workers/peaks.ts'\nexport { computePeaks }\n",
    'boundaries/dependencies',
  ],
  [
    'a worklet importing dsp/ (offline kernels allocate)',
    'audio-worklets/bad.ts',
    "import { detectKey } from '../dsp/key-detect.ts'\nexport { detectKey }\n",
    'boundaries/dependencies',
  ],
  [
    'a feature importing dsp/ directly',
    'src/features/remix/bad.ts',
    "import { detectKey } from '../../../dsp/key-detect.ts'\nexport { detectKey }\n",
    'boundaries/dependencies',
  ],
  [
    'a worker importing the engine',
    'workers/bad.ts',
    "import { getMasterBus } from '../src/engine/master-bus.ts'\nexport { getMasterBus }\n",
    'boundaries/dependencies',
  ],
  [
    'lib importing the backend',
    'src/lib/bad.ts',
    "import { supabase } from '../backend/client.ts'\nexport { supabase }\n",
    'boundaries/dependencies',
  ],
  [
    'the app importing a feature’s internal file',
    'src/app/bad.tsx',
    "import { songTags } from '../features/player/song-tags.ts'\nexport { songTags }\n",
    'boundaries/dependencies',
  ],
  [
    'the router importing a page statically',
    'src/app/router.tsx',
    "import Page from '../features/player/NowPlayingPage.tsx'\nexport { Page }\n",
    'boundaries/dependencies',
  ],
  [
    'the local backend importing src/lib',
    'supabase/local/bad.ts',
    "import { notify } from '../../src/lib/notify.ts'\nexport { notify }\n",
    'boundaries/dependencies',
  ],
  [
    'an edge-function module importing src/',
    'supabase/functions/_shared/bad.ts',
    "import { APP_ROUTES } from '../../../src/config/routes.ts'\nexport { APP_ROUTES }\n",
    'boundaries/dependencies',
  ],
  [
    'a component importing a backend call',
    'src/features/admin/Bad.tsx',
    "import { fetchAudit } from '../../backend/admin.ts'\nexport const Bad = () => <p>{String(fetchAudit)}</p>\n",
    'no-restricted-imports',
  ],
  [
    'a component importing the supabase client',
    'src/features/settings/Bad.tsx',
    "import { supabase } from '../../backend/client.ts'\nexport const Bad = () => <p>{String(supabase)}</p>\n",
    'no-restricted-imports',
  ],
  [
    'a component importing a backend value beside a type',
    'src/features/wallet/Bad.tsx',
    "import { claimRewards, type NftRow } from '../../backend/web3.ts'\nexport const Bad = ({ nft }: { nft: NftRow }) => " +
      '<p>{String(claimRewards)}{nft.id}</p>\n',
    'no-restricted-imports',
  ],
  [
    'an app component importing a backend call',
    'src/app/Bad.tsx',
    'import { signOut } from \'../backend/auth.ts\'\nexport const Bad = () => <button type="button" onClick={() => void ' +
      'signOut()}>out</button>\n',
    'no-restricted-imports',
  ],
  [
    'app code importing a test helper',
    'src/lib/bad.ts',
    "import { toast } from '../../tests/e2e/support/auth.ts'\nexport { toast }\n",
    'boundaries/dependencies',
  ],
  [
    'an e2e spec taking test from Playwright (it would not close the contexts it opens)',
    'tests/e2e/bad.spec.ts',
    "import { test } from '@playwright/test'\ntest('x', () => {})\n",
    'no-restricted-imports',
  ],
  [
    'an e2e test budgeted over 90 s',
    'tests/e2e/bad.spec.ts',
    "import { test } from './support/test.ts'\ntest('x', () => {\n  test.setTimeout(120_000)\n})\n",
    'no-restricted-syntax',
  ],
]

for (const [name, filePath, code, rule] of wrong) {
  test(`fails: ${name}`, async () => {
    const errors = await layerErrors(filePath, code)
    assert.ok(
      errors.some((e) => e.startsWith(`${rule}:`)),
      `expected a ${rule} error for ${filePath}, got ${JSON.stringify(errors)}`,
    )
  })
}

const right = [
  [
    'a feature importing the domain tier',
    'src/features/library/ok.ts',
    "import { usePlayerStore } from '../../domain/playback/player-store.ts'\nimport { useSlot } from " +
      "'../../ui/slots.tsx'\nexport { usePlayerStore, useSlot }\n",
  ],
  [
    'a domain slice importing a slice below it (economy → playback)',
    'src/domain/economy/ok.ts',
    "import { onPlayPressed } from '../playback/player-store.ts'\nexport { onPlayPressed }\n",
  ],
  [
    'a domain slice importing another slice and the platform',
    'src/domain/economy/ok.ts',
    "import { useSessionStore } from '../session/session-store.ts'\nimport { initUserTokens } from " +
      "'../../backend/wallet.ts'\nexport { useSessionStore, initUserTokens }\n",
  ],
  [
    'the app importing a feature through its index.ts and the domain',
    'src/app/ok.tsx',
    "import { MiniPlayer } from '../features/player/index.ts'\nimport { usePlayerStore } from " +
      "'../domain/playback/player-store.ts'\nexport { MiniPlayer, usePlayerStore }\n",
  ],
  [
    'a feature importing its own files and the platform',
    'src/features/player/ok.ts',
    "import { songTags } from './song-tags.ts'\nimport { notify } from '../../lib/notify.ts'\nimport { getMasterBus } " +
      "from '../../engine/master-bus.ts'\nimport { APP_ROUTES } from '../../config/routes.ts'\nexport { songTags, " +
      'notify, getMasterBus, APP_ROUTES }\n',
  ],
  [
    'the engine importing workers and worklets, spawning a worker',
    'src/engine/ok.ts',
    "import { computePeaks } from '../../workers/peaks.ts'\nimport { STRIP_PARAM_NAMES } from " +
      "'../../audio-worklets/channel-strip-params.ts'\nexport const w = new Worker(new " +
      "URL('../../workers/peaks.worker.ts', import.meta.url), { type: 'module' })\nexport { computePeaks, " +
      'STRIP_PARAM_NAMES }\n',
  ],
  ['a worker importing dsp/', 'workers/ok.ts', "import { detectTempo } from '../dsp/tempo-detect.ts'\nexport { detectTempo }\n"],
  ['dsp/ importing itself', 'dsp/ok.ts', "import { onsetBands } from './onset-bands.ts'\nexport { onsetBands }\n"],
  ['the engine importing dsp/', 'src/engine/ok.ts', "import { createYin } from '../../dsp/yin.ts'\nexport { createYin }\n"],
  [
    'the router lazy-loading a page module',
    'src/app/router.tsx',
    "export const load = () => import('../features/player/NowPlayingPage.tsx')\n",
  ],
  ['the notifier importing sonner', 'src/app/Notifier.tsx', "import { toast } from 'sonner'\nexport { toast }\n"],
  ['a component importing react', 'src/ui/ok.tsx', "import { useState } from 'react'\nexport { useState }\n"],
  [
    'the local backend importing src/config',
    'supabase/local/ok.ts',
    "import { ISOLATION_HEADERS } from '../../src/config/isolation-headers.ts'\nexport { ISOLATION_HEADERS }\n",
  ],
  [
    'a component importing backend types only',
    'src/features/admin/Ok.tsx',
    "import type { AuditRow } from '../../backend/admin.ts'\nimport { type NftRow } from '../../backend/web3.ts'\nexport " +
      'const Ok = ({ row, nft }: { row: AuditRow; nft: NftRow }) => <p>{row.id}{nft.id}</p>\n',
  ],
  [
    'a data hook (.ts) importing backend calls',
    'src/features/admin/useOk.ts',
    "import { fetchAudit } from '../../backend/admin.ts'\nimport { supabase } from '../../backend/client.ts'\nexport " +
      'const loadAudit = () => fetchAudit(supabase())\n',
  ],
  [
    'the service worker importing the constants it shares with the app',
    'service-worker/ok.ts',
    "import { isApiPath } from '../src/config/offline.ts'\nexport { isApiPath }\n",
  ],
  [
    'a domain service (.ts) importing backend calls',
    'src/domain/session/ok.ts',
    "import { signOut } from '../../backend/auth.ts'\nexport const logOut = () => signOut()\n",
  ],
  [
    'a component test mocking a backend module',
    'src/features/admin/Ok.browser.test.tsx',
    "import { vi } from 'vitest'\nimport { fetchAudit } from '../../backend/admin.ts'\nvi.mock('../../backend/admin.ts', " +
      '() => ({ fetchAudit: vi.fn() }))\nexport { fetchAudit }\n',
  ],
  [
    'an e2e test budgeted 90 s, taking test from the closing fixture',
    'tests/e2e/ok.spec.ts',
    "import { expect } from '@playwright/test'\nimport { test } from './support/test.ts'\ntest('x', () => {\n  " +
      'test.setTimeout(90_000)\n  expect(1).toBe(1)\n})\n',
  ],
  [
    'a test importing anything',
    'tests/node/ok.test.ts',
    "import { usePlayerStore } from '../../src/features/player/player-store.ts'\nexport { usePlayerStore }\n",
  ],
]

for (const [name, filePath, code] of right) {
  test(`passes: ${name}`, async () => {
    assert.deepEqual(await layerErrors(filePath, code), [])
  })
}

test('every domain slice has its place in the declared order', async () => {
  const { readdirSync } = await import('node:fs')
  const { SLICE_ORDER } = await import('./eslint.config.js')
  const slices = readdirSync(new URL('../../src/domain', import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
  assert.deepEqual([...slices].sort(), [...SLICE_ORDER].sort())
})
