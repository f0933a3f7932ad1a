// The cycle check (import-cycles.mjs) must find cycles, ignore type-only imports, and pass the app.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { findCycles, importGraph, runtimeImports } from './import-cycles.mjs'

test('finds a three-module cycle and a self-import, not a chain', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
    ['e', ['e']],
  ])
  assert.deepEqual(
    findCycles(graph)
      .map((c) => c.join(' '))
      .sort(),
    ['a b c', 'e'],
  )
  assert.deepEqual(
    findCycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  )
})

test('counts static, re-export and dynamic imports; not type-only ones or packages', () => {
  const text = [
    "import { a } from './a.ts'",
    "import type { B } from './b.ts'",
    "export { c } from './c.ts'",
    "export type { D } from './d.ts'",
    "const e = () => import('./e.tsx')",
    "import url from './f.ts?worker&url'",
    "import { create } from 'zustand'",
    "import './g.css'",
  ].join('\n')
  assert.deepEqual(runtimeImports('/x/m.ts', text), ['/x/a.ts', '/x/c.ts', '/x/e.tsx', '/x/f.ts', '/x/g.css'])
})

test('src/ has no import cycle', () => {
  assert.deepEqual(findCycles(importGraph([fileURLToPath(new URL('../../src', import.meta.url))])), [])
})
