import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import browserConfig from '../vitest.browser.config.ts'

// The browser tier pre-bundles every package the code it loads imports: a package Vite finds only
// mid-run reloads the page, and the modules already loaded keep a second copy of React (every
// hook then fails with "Cannot read properties of null"). This keeps the list complete.

const ROOTS = ['src', 'tests/browser', 'tests/component', 'audio-worklets', 'workers', 'dsp']
const SOURCE = /\.(ts|tsx)$/
// A package name and an optional subpath (what is quoted after `from` in prose is not one).
const PACKAGE = /^(@[a-z0-9._-]+\/)?[a-z0-9._-]+(\/[a-zA-Z0-9._/-]+)?$/
const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+'([^'.][^']*)'|import\(\s*'([^'.][^']*)'\s*\)/gm

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* sources(path)
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield path
  }
}

/** Bare package specifiers: not relative, not Node's own, not Vite's virtual modules, not the test runner. */
function packagesImported(): Set<string> {
  const found = new Set<string>()
  for (const root of ROOTS)
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2]!
        if (!PACKAGE.test(spec) || /^(node:|virtual:|vitest|@vitest\/)/.test(spec)) continue
        found.add(spec)
      }
    }
  return found
}

it('pre-bundles every package the browser tier can load', () => {
  const include = new Set(browserConfig.optimizeDeps?.include ?? [])
  // Node-only test files import packages the browser never loads; the browser tier's own files do not.
  const missing = [...packagesImported()].filter((spec) => !include.has(spec)).sort()
  expect(missing).toEqual([])
})
