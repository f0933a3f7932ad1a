// The docs check: fails on a tracker reference and on a path that does not exist, in a doc or in a
// code comment, and accepts placeholders, globs and paths that exist.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { comments, mentionedPaths, problems } from './docs-check.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const files = ['src/features/player/PlayerBar.tsx', 'src/features/library/LibraryPage.tsx', 'public/audio/catalogue/a.mp3']
const check = (file, text) => problems(file, text, files, root)
// Built from parts so that this file does not hold the reference it tests.
const reference = (n) => ['iss', 'ue ', n].join('')

test('a tracker reference fails in a doc, a comment and a test title, with or without #', () => {
  assert.equal(check('docs/x.md', `The bar (${reference(24)}) shows the song.\n`).length, 1)
  assert.equal(check('src/a.ts', `// ${reference('#24')}: the bar\nexport {}\n`).length, 1)
  assert.equal(check('src/a.test.ts', `it('keeps the name (${reference(15).toUpperCase()})', () => {})\n`).length, 1)
  assert.deepEqual(check('docs/x.md', 'An issue with 24 songs is not a reference.\n'), [])
})

test('a path that does not exist fails, in a doc and in a comment; one that exists passes', () => {
  assert.deepEqual(check('docs/x.md', 'See `src/features/player/PlayerBar.tsx` and `src/features/library/`.\n'), [])
  const [doc] = check('docs/x.md', 'intro\nSee `src/features/player/Gone.tsx`.\n')
  assert.match(doc, /^docs\/x\.md:2: src\/features\/player\/Gone\.tsx does not exist$/)
  assert.equal(check('src/a.ts', '// the deck (src/engine/gone-deck.ts) plays\nexport {}\n').length, 1)
  // A string in code is not a comment: only comments are read in a source file.
  assert.deepEqual(check('src/a.ts', "export const url = 'src/engine/gone-deck.ts'\n"), [])
})

test('placeholders, globs, line numbers and relative links resolve; example names are examples', () => {
  assert.deepEqual(check('docs/x.md', '`src/features/<feature>/index.ts`? No: `src/features/<feature>/`.\n').length, 1)
  assert.deepEqual(check('docs/x.md', '`src/features/<feature>/PlayerBar.tsx`, `public/audio/catalogue/*.mp3`\n'), [])
  assert.deepEqual(check('docs/x.md', '`src/features/{player,library}/**`, `src/features/player/PlayerBar.tsx:12`\n'), [])
  assert.deepEqual(check('docs/x.md', '[the bar](../src/features/player/PlayerBar.tsx), `src/features/player/x.ts`\n'), [])
})

test('comments are found in line, block and JSX form, not in URLs', () => {
  const text = "const a = 'https://x.test/src/y' // one\n/* two\n */\n{/* three */}\n"
  assert.deepEqual(comments(text), ['// one', '/* two\n */', '/* three */'])
  assert.deepEqual(mentionedPaths('see src/a/b.ts, then tests/e2e/c.spec.ts.'), ['src/a/b.ts', 'tests/e2e/c.spec.ts'])
})

test('a migration named by its file alone is checked as a path under supabase/migrations/', () => {
  assert.deepEqual(mentionedPaths('rules in `20261126120000_listening_sessions.sql`'), [
    'supabase/migrations/20261126120000_listening_sessions.sql',
  ])
})
