// The line-length rule: counts characters (a Chinese paragraph is not three times too long), and
// exempts only generated files and the migrations that predate it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { exempt, longLines, MAX_LINE } from './line-length.mjs'

test('a line of 140 characters passes, 141 fails, with its file and line number', () => {
  assert.deepEqual(longLines('a.ts', `${'x'.repeat(MAX_LINE)}\n`), [])
  assert.deepEqual(longLines('a.ts', `ok\n${'x'.repeat(MAX_LINE + 1)}\n`), ['a.ts:2: 141 characters'])
})

test('characters are counted, not UTF-8 bytes', () => {
  assert.deepEqual(longLines('w.ts', '音'.repeat(100)), [])
  assert.equal(longLines('w.ts', '音'.repeat(141)).length, 1)
})

test('generated files and grandfathered migrations are exempt; new migrations and sources are not', () => {
  assert.equal(exempt('src/backend/database.types.ts'), true)
  assert.equal(exempt('supabase/migrations/20261124120100_catalogue_seed.sql'), true)
  assert.equal(exempt('supabase/migrations/20261124140000_comments.sql'), true)
  assert.equal(exempt('supabase/migrations/20261126090000_listening_sessions.sql'), false)
  assert.equal(exempt('src/features/player/PlayerBar.tsx'), false)
})
