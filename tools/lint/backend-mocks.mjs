// Component tests fake the server through the injected backend (tests/component/fake-backend.ts),
// never by replacing a src/backend/ module: a module mock hides whether the screen reaches the
// server through its domain hooks at all. This finds the module mocks that would.
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'

/** The component tests: every `*.browser.test.tsx` under src/, and every file of tests/component/. */
export const isComponentTest = (path) =>
  (path.startsWith('src/') && path.endsWith('.browser.test.tsx')) || (path.startsWith('tests/component/') && /\.(ts|tsx)$/.test(path))

// vi.mock or vi.doMock of a path given as a string or as import('path').
const MOCK = /\bvi\s*\.\s*(mock|doMock)\s*\(\s*(?:import\s*\(\s*)?(['"`])([^'"`]+)\2/g

/** `file:line: vi.mock('path')` for each mock in `text` whose path is a module under src/backend/. */
export function backendMocks(path, text) {
  const out = []
  for (const match of text.matchAll(MOCK)) {
    const spec = match[3]
    const target = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), spec)) : spec.replace(/^\//, '')
    if (!target.startsWith('src/backend/')) continue
    const line = text.slice(0, match.index).split('\n').length
    out.push(`${path}:${line}: ${match[1]}('${spec}') replaces ${target}`)
  }
  return out
}

/** Every component test under `root`, as paths relative to it with forward slashes. */
export function componentTests(root) {
  const files = []
  for (const top of ['src', 'tests/component']) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const path = relative(root, join(entry.parentPath ?? entry.path, entry.name))
        .split(sep)
        .join('/')
      if (isComponentTest(path)) files.push(path)
    }
  }
  return files.sort()
}

/** The backend mocks in the tree's component tests (empty when there are none). */
export function backendMocksIn(root) {
  return componentTests(root).flatMap((path) => backendMocks(path, readFileSync(join(root, path), 'utf8')))
}
