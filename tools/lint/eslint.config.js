// The project's ESLint configuration. It lives in tools/lint with its own toolchain (README.md
// explains why) and is run from the repository root: `npm run lint`.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'eslint/config'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import boundaries from 'eslint-plugin-boundaries'
import globals from 'globals'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// ---------------------------------------------------------------------------------------------
// The layering. Each file belongs to one element type (first matching descriptor wins); the
// `boundaries/dependencies` policies below say which types each type may import.
// ---------------------------------------------------------------------------------------------
const ELEMENTS = [
  { type: 'worklets', pattern: 'audio-worklets', partialMatch: false },
  // Offline DSP (tempo, key, pitch, stretch): runtime-neutral, run by workers, scripts and tests.
  { type: 'dsp', pattern: 'dsp', partialMatch: false },
  { type: 'workers', pattern: 'workers', partialMatch: false },
  // The service worker: its own global scope; it shares only constants with the app (src/config).
  { type: 'service-worker', pattern: 'service-worker', partialMatch: false },
  { type: 'config', pattern: 'src/config', partialMatch: false },
  { type: 'lib', pattern: 'src/lib', partialMatch: false },
  { type: 'engine', pattern: 'src/engine', partialMatch: false },
  { type: 'backend', pattern: 'src/backend', partialMatch: false },
  { type: 'ui', pattern: 'src/ui', partialMatch: false },
  { type: 'domain', pattern: 'src/domain/*', capture: ['slice'], partialMatch: false },
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'], partialMatch: false },
  { type: 'app', pattern: 'src/app', partialMatch: false },
  { type: 'styles', pattern: 'src/styles', partialMatch: false },
  // What is left of src/ after the folders above: the entry (src/main.tsx, src/vite-env.d.ts).
  { type: 'main', pattern: 'src', partialMatch: false },
  { type: 'local-backend', pattern: 'supabase/local', partialMatch: false },
  { type: 'functions-shared', pattern: 'supabase/functions', partialMatch: false },
  // Tests, benches and scripts test or measure anything: classified (so nothing in src/ can import
  // them), never restricted. Root *.config.ts files match no element and are not checked either.
  { type: 'tooling', pattern: ['tests', 'bench', 'scripts'], partialMatch: false },
]

// The domain slices, lowest first: a slice imports only itself and the slices before it. Playback
// sits below economy, so the player store announces a press of play (onPlayPressed) and the
// economy's reward flash listens, instead of the store calling the reward store.
export const SLICE_ORDER = ['session', 'profile', 'appearance', 'studio', 'playback', 'analytics', 'economy', 'collection']

const is = (...types) => ({ element: { types: types.length === 1 ? types[0] : types } })
const PLATFORM = ['engine', 'lib', 'backend', 'config', 'ui']

const POLICIES = [
  // The audio thread imports only itself: dsp/ allocates freely, so it stays off the audio thread.
  { from: is('worklets'), allow: { to: is('worklets') } },
  { from: is('dsp'), allow: { to: is('dsp') } },
  { from: is('workers'), allow: { to: is('workers', 'worklets', 'dsp') } },
  { from: is('config'), allow: { to: is('config') } },
  { from: is('service-worker'), allow: { to: is('service-worker', 'config') } },
  { from: is('lib'), allow: { to: is('lib', 'config') } },
  { from: is('engine'), allow: { to: is('engine', 'workers', 'worklets', 'dsp', 'lib', 'config') } },
  { from: is('backend'), allow: { to: is('backend', 'lib', 'config') } },
  { from: is('ui'), allow: { to: is('ui', 'lib', 'config') } },
  // The domain tier: the state, services and rules features share (no components). A slice may use
  // itself and the slices below it in SLICE_ORDER, never one above (docs/architecture.md).
  ...SLICE_ORDER.map((slice, rank) => ({
    from: { element: { type: 'domain', captured: { slice } } },
    allow: {
      to: [{ element: { type: 'domain', captured: { slice: SLICE_ORDER.slice(0, rank + 1) } } }, is('engine', 'backend', 'lib', 'config')],
    },
  })),
  // A feature: anything of its own, the domain tier and the platform — never another feature.
  // Another feature's widget reaches a screen through a slot (src/ui/slots.tsx) that src/app fills.
  {
    from: is('feature'),
    allow: {
      to: [{ element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } }, is('domain', ...PLATFORM)],
    },
  },
  // The app shell: itself, the domain, features through their index.ts, the platform…
  { from: is('app'), allow: { to: [is('app', 'domain', ...PLATFORM), { element: { type: 'feature', fileInternalPath: 'index.ts' } }] } },
  // …and the router, which lazy-loads each page module so every page stays its own chunk.
  {
    from: { element: { type: 'app' }, file: { path: 'src/app/router.tsx' } },
    allow: { dependency: { nodeKind: 'dynamic-import' }, to: { element: { type: 'feature', fileInternalPath: '**/*Page.tsx' } } },
  },
  { from: is('main'), allow: { to: is('app', 'styles') } },
  // The local backend serves the edge functions' runtime-neutral handler modules itself.
  { from: is('local-backend'), allow: { to: is('local-backend', 'functions-shared', 'config') } },
  { from: is('functions-shared'), allow: { to: is('functions-shared') } },
  { from: is('tooling'), allow: { to: { element: { types: '*' } } } },
  // Unit tests beside their source are test code too (run in Node by Vitest, never bundled): they
  // may reach fixtures anywhere, e.g. workers/mp3-frames.test.ts reads the catalogue's MP3s.
  { from: { file: { path: '**/*.test.{ts,tsx}' } }, allow: { to: { element: { types: '*' } } } },
]

// React belongs to the UI layers; sonner to the one notifier in src/app (src/lib/notify.ts).
const NO_REACT = [
  { name: 'react', message: 'No React below the UI: engine, backend, lib, config, workers and worklets stay framework-free.' },
  { name: 'react-dom', message: 'No React below the UI: engine, backend, lib, config, workers and worklets stay framework-free.' },
]
const NO_REACT_PATTERNS = [{ group: ['react/*', 'react-dom/*'], message: 'No React below the UI.' }]
const NO_SONNER = [{ name: 'sonner', message: 'Only src/app/Notifier.tsx shows toasts: call notify() from src/lib/notify.ts.' }]
// One wiring pattern: a component reads stores and calls actions, services or data hooks (.ts
// modules) that own the backend calls; types from src/backend are fine (they are not calls).
const NO_BACKEND_IN_COMPONENTS = [
  {
    group: ['**/backend/**'],
    allowTypeImports: true,
    message:
      'Components do not call the backend: go through a store action, a service or a data hook in a .ts module (import type is fine).',
  },
]

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      // Builds for running one spec beside another checkout's (`vite build --outDir dist-NAME`).
      '**/dist-*/**',
      '**/node_modules/**',
      'playwright-report/**',
      'test-results/**',
      'blob-report/**',
      '.local-data/**',
      // Deno's download cache of the edge functions' npm packages (npm run check:functions).
      '.deno-cache/**',
      'public/**',
      // Edge functions run on Deno (URL imports, Deno globals): not linted with the Node/browser setup.
      'supabase/functions/**/index.ts',
      'supabase/functions/**/*.deno.ts',
      // AssemblyScript (compiled to .wasm by scripts/build-wasm.mjs): its own types (f64, v128,
      // usize), decorators and std library, which the TypeScript parser and rules do not know.
      'audio-worklets/wasm/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // Leading underscore marks an intentionally unused parameter or binding (tsc's convention too).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },

  // Globals per runtime.
  { files: ['src/**'], languageOptions: { globals: globals.browser } },
  { files: ['tests/browser/**', 'bench/browser/**'], languageOptions: { globals: globals.browser } },
  { files: ['workers/**'], languageOptions: { globals: globals.worker } },
  { files: ['service-worker/**'], languageOptions: { globals: globals.serviceworker } },
  { files: ['audio-worklets/**'], languageOptions: { globals: globals.audioWorklet } },
  {
    files: [
      'supabase/local/**',
      'scripts/**',
      'bench/*.ts',
      'bench/node/**',
      'tests/backend/**',
      'tests/e2e/**',
      '*.config.{ts,js}',
      'tools/**/*.{js,mjs}',
      'workers/**/*.test.ts',
      'audio-worklets/**/*.test.ts',
      'dsp/**/*.test.ts',
    ],
    languageOptions: { globals: globals.node },
  },

  // React: the hooks rules (classic rules-of-hooks and exhaustive-deps, and v7's React Compiler
  // rules, all kept) everywhere in src/; accessibility for JSX. The few the preset ships as warnings
  // (exhaustive-deps, incompatible-library, unsupported-syntax) fail the run anyway under
  // --max-warnings 0, so they are errors here and the config says what fails.
  // src/engine stays in small pieces (docs/lint.md): a module that outgrows 300 lines is split by
  // job, as the player deck's parts are; the deck's functions stay under 60 lines (test cases are
  // scripts read top to bottom, so only their files count).
  { files: ['src/engine/**/*.{ts,tsx}'], rules: { 'max-lines': ['error', { max: 300 }] } },
  {
    files: ['src/engine/player-deck.ts', 'src/engine/deck-*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  { files: ['src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: Object.fromEntries(
      Object.entries(reactHooks.configs.flat.recommended.rules)
        .filter(([, level]) => level === 'warn')
        .map(([rule]) => [rule, 'error']),
    ),
  },
  { files: ['src/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },

  // The layering.
  {
    files: [
      'src/**',
      'workers/**',
      'service-worker/**',
      'audio-worklets/**',
      'dsp/**',
      'supabase/**',
      'tests/**',
      'bench/**',
      'scripts/**',
      '*.config.ts',
    ],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': ROOT,
      'boundaries/elements': ELEMENTS,
      'boundaries/legacy-templates': false,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      // `new Worker(new URL('../../workers/x.worker.ts', import.meta.url))` is a dependency too.
      'boundaries/additional-dependency-nodes': [
        { selector: "NewExpression[callee.name='URL'][arguments.1.object.type='MetaProperty'] > Literal", kind: 'value', name: 'url' },
      ],
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: POLICIES }],
    },
  },
  {
    files: ['src/{engine,backend,lib,config}/**', 'workers/**', 'service-worker/**', 'audio-worklets/**', 'dsp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [...NO_REACT, ...NO_SONNER], patterns: NO_REACT_PATTERNS }] },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXElement, JSXFragment',
          message: 'The domain tier holds state, services and rules: no components (put them in a feature or src/ui).',
        },
      ],
    },
  },
  {
    files: ['src/{features,ui,styles,domain}/**', 'src/*.{ts,tsx}', 'supabase/**'],
    rules: { 'no-restricted-imports': ['error', { paths: NO_SONNER }] },
  },
  // Components never import backend values; component tests do (to mock the module and check its
  // calls). (A later block replaces the rule's options, so each block's sonner paths are repeated.)
  {
    files: ['src/{features,ui,styles,domain}/**/*.tsx', 'src/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: NO_SONNER, patterns: NO_BACKEND_IN_COMPONENTS }] },
  },
  {
    files: ['src/app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: NO_BACKEND_IN_COMPONENTS }] },
  },
  // Every e2e test closes the browser contexts it opens (tests/e2e/support/test.ts).
  {
    files: ['tests/e2e/**/*.ts'],
    ignores: ['tests/e2e/support/test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import test from './support/test.ts': it closes the contexts a test opens.",
            },
          ],
        },
      ],
      // No single e2e test longer than 90 s; a longer journey is split instead.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='test'][callee.property.name='setTimeout'] > Literal[value>90000]",
          message: 'An e2e test gets at most 90 s: split the journey instead of raising its budget.',
        },
      ],
    },
  },
  {
    files: ['src/{engine,backend,lib,config}/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [...NO_REACT, ...NO_SONNER], patterns: [...NO_REACT_PATTERNS, ...NO_BACKEND_IN_COMPONENTS] },
      ],
    },
  },
)
