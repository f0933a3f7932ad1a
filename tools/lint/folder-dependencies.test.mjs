// Each CONTEXT.md's dependency line is derived from its folder's imports and rewritten in place.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { END, START, areaOf, dependencies, dependencyLine, packageOf, withDependencies } from './folder-dependencies.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

test('an import is counted by its area: a slice, a feature, a platform folder; packages by name', () => {
  assert.equal(areaOf('src/domain/session/session-store.ts'), 'src/domain/session')
  assert.equal(areaOf('src/engine/player-deck.ts'), 'src/engine')
  assert.equal(areaOf('src/features/player/PlayerBar.tsx'), 'src/features/player')
  assert.equal(areaOf('tests/component/render.tsx'), null)
  assert.equal(packageOf('@xstate/react/lib/x'), '@xstate/react')
  assert.equal(packageOf('react-dom/client'), 'react-dom')
})

test('the line names slices, platform folders and packages; a folder that imports nothing says so', () => {
  const line = dependencyLine({ areas: ['src/domain/session', 'src/lib'], packages: ['zustand'] })
  assert.equal(line, "**Depends on** (from its imports): the domain's `session`; `src/lib`; npm `zustand`.")
  assert.equal(dependencyLine({ areas: [], packages: [] }), '**Depends on** (from its imports): nothing outside its folder.')
})

test('the real playback slice depends on no slice above it (the order holds)', () => {
  const { areas } = dependencies(root, 'src/domain/playback')
  assert.deepEqual(
    areas.filter((a) => a.startsWith('src/domain/')),
    [],
  )
  assert.ok(areas.includes('src/engine'))
})

test('only the text between the markers is rewritten', () => {
  const text = `# x\n\n${START}\nold\n${END}\n\n**Rule** stays.\n`
  assert.equal(withDependencies(text, 'new'), `# x\n\n${START}\nnew\n${END}\n\n**Rule** stays.\n`)
  assert.equal(withDependencies('# no markers\n', 'new'), null)
})
