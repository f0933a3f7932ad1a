// No component test replaces a src/backend/ module (docs/architecture.md, "Where tests live"):
// the rule's own cases, then the tree.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { backendMocks, backendMocksIn, componentTests, isComponentTest } from './backend-mocks.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('a mock of a src/backend/ module fails with its file, line and module; other mocks pass', () => {
  const file = 'src/features/library/LibraryPage.browser.test.tsx'
  const text = [
    "import { vi } from 'vitest'",
    "vi.mock('../../lib/notify.ts', () => ({}))",
    "vi.mock('../../backend/publishing.ts', async (original) => ({}))",
    'vi.doMock("../../backend/client.ts")',
    "vi.mock(import('../../backend/comments.ts'))",
    "vi.mock('./backend/local-helper.ts')",
  ].join('\n')
  assert.deepEqual(backendMocks(file, text), [
    `${file}:3: mock('../../backend/publishing.ts') replaces src/backend/publishing.ts`,
    `${file}:4: doMock('../../backend/client.ts') replaces src/backend/client.ts`,
    `${file}:5: mock('../../backend/comments.ts') replaces src/backend/comments.ts`,
  ])
  assert.deepEqual(backendMocks('tests/component/helper.tsx', "vi.mock('../../src/backend/wallet.ts')").length, 1)
  assert.deepEqual(backendMocks('src/app/x.browser.test.tsx', "vi.mock('../domain/session/session-sync.ts')"), [])
})

test('the component tests are the browser tests under src/ and the files of tests/component/', () => {
  assert.equal(isComponentTest('src/features/comments/CommentMarkers.browser.test.tsx'), true)
  assert.equal(isComponentTest('tests/component/render.tsx'), true)
  assert.equal(isComponentTest('src/domain/collection/playlist-sync.test.ts'), false)
  assert.equal(isComponentTest('tests/browser/golden-renders.test.ts'), false)
  assert.ok(componentTests(root).includes('src/features/library/LibraryPage.browser.test.tsx'))
})

test('no component test in the tree mocks a src/backend/ module (fake it through renderWithBackend instead)', () => {
  assert.deepEqual(backendMocksIn(root), [])
})
