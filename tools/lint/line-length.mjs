// No line over 140 characters (the formatter wraps code; this catches the strings, comments and
// files it leaves alone). Generated files are exempt, and so are the migrations applied before the
// rule existed: their checksums are recorded in every data folder and in hosted migration history.
// Usage: node tools/lint/line-length.mjs   (from the repository root) — exits 1 and lists offenders.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

export const MAX_LINE = 140
export const CHECKED = /\.(ts|tsx|mts|js|mjs|cjs|css|html|sql|sol)$|(^|\/)(package|tsconfig[^/]*)\.json$/
export const GENERATED = [
  'src/backend/database.types.ts',
  'supabase/functions/_shared/database.types.ts',
  'src/lib/catalogue/sample-songs.ts',
  /_catalogue_seed\.sql$/,
  // Compiled from supabase/schemas/ by `npm run db:schema-fold -- --squash`; the schema files are checked.
  /^supabase\/migrations\/\d{14}_baseline\.sql$/,
]
/** Migrations up to and including this one predate the rule. */
export const LAST_GRANDFATHERED_MIGRATION = '20261125140000'

export function exempt(path) {
  if (GENERATED.some((g) => (typeof g === 'string' ? g === path : g.test(path)))) return true
  const migration = /^supabase\/migrations\/(\d{14})_/.exec(path)
  return migration !== null && migration[1] <= LAST_GRANDFATHERED_MIGRATION
}

/** `file:line: n characters` for every line over the limit (counted in characters, not bytes). */
export function longLines(path, text) {
  const out = []
  text.split('\n').forEach((line, i) => {
    const length = [...line].length
    if (length > MAX_LINE) out.push(`${path}:${i + 1}: ${length} characters`)
  })
  return out
}

function trackedFiles() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { encoding: 'utf8' })
  return listed.split('\0').filter((p) => p && CHECKED.test(p) && !exempt(p))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = []
  for (const path of trackedFiles()) {
    let text
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      continue // listed but deleted in the work tree
    }
    found.push(...longLines(path, text))
  }
  if (found.length) {
    console.error(`${found.length} line(s) over ${MAX_LINE} characters:\n${found.join('\n')}`)
    process.exit(1)
  }
}
