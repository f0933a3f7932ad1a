// Two checks over the docs and the code's comments, so that they stay readable without anything
// outside the repository:
//   - no tracker references (the word issue and a number): a comment says the rule it stands for;
//   - every repository path they mention exists (`src/engine/x.ts`, [text](../tests/e2e/y.spec.ts),
//     a path in a comment). A placeholder (`<feature>`, `{slug}`, `*`, `…`, a file named x, y,
//     ok or bad as in the lint tests' examples) matches any name.
// Usage: node tools/lint/docs-check.mjs   (from the repository root) — exits 1 and lists offenders.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the checks look: the docs, and every code folder's sources (comments and all). */
export const SCANNED = [
  'README.md',
  'docs',
  'src',
  'workers',
  'audio-worklets',
  'dsp',
  'scripts',
  'bench',
  'tests',
  'tools',
  'service-worker',
  'supabase',
  '.ci',
]
/**
 * Never scanned: the migrations are history as applied (their text is recorded by every database
 * that ran them), and the library's reference docs are not ours.
 */
export const NOT_SCANNED = [/^supabase\/migrations\//, /(^|\/)node_modules\//, /^tools\/lint\/package-lock\.json$/]
const TEXT = /\.(md|ts|tsx|mts|js|mjs|cjs|sql|toml|css|html|sh)$|^\.ci\/run$/

/** A tracker reference, in any case: the word issue (or issues), then a number, with or without #. */
export const ISSUE_REFERENCE = /\bissues? #?\d+/gi

/** The top folders a mentioned path must start with to be checked as a repository path. */
const TOP = [
  'src',
  'tests',
  'supabase',
  'scripts',
  'workers',
  'audio-worklets',
  'dsp',
  'bench',
  'tools',
  'docs',
  'service-worker',
  'public',
  'contracts',
  '.ci',
]
/**
 * Path prefixes left unchecked, for the short time a rename of many files (a squash of migrations)
 * leaves the docs behind. Empty: every path is checked, migration files too.
 */
export const PATHS_NOT_CHECKED = []

const TOPS = TOP.map((t) => t.replace('.', '\\.')).join('|')
// A path: a top folder, then names, placeholders and brace groups (`src/{engine,lib}/**`).
const PATH = new RegExp(`(?<![\\w./@-])(?:\\.\\./)*((?:${TOPS})/(?:[\\w./<>*…@+-]|\\{[^}\\s]*\\})*)`, 'g')
/** File names the docs and lint tests use as examples of any file. */
const EXAMPLE = /(^|\/)(x|y|ok|bad)(\.[\w]+)+$/

/** Comments of a source file, as one string per comment (line comments, blocks, JSX comments). */
export function comments(text) {
  const out = []
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:\w'"`\\])\/\/[^\n]*|^\s*--[^\n]*|^\s*#[^\n!]*/gm)) out.push(m[0])
  return out
}

/** The repository paths a text mentions (docs: all of it; code: its comments). */
export function mentionedPaths(text) {
  const found = new Set()
  for (const m of text.matchAll(PATH)) {
    let path = m[1]
      .replace(/[.,;:)]+$/, '')
      .replace(/:\d+(-\d+)?$/, '')
      .replace(/#.*$/, '')
    // A sentence's full stop or a range's dots, not part of the name.
    path = path.replace(/\.+$/, '')
    if (path.split('/').length < 2 || path.endsWith('/.')) continue
    found.add(path)
  }
  // A migration named by its file alone (`20261127120000_baseline.sql`) is a path too.
  for (const m of text.matchAll(/(?<![\w/.-])(\d{14}_[\w-]+\.sql)\b/g)) found.add(`supabase/migrations/${m[1]}`)
  return [...found]
}

/** A mentioned path as a pattern: placeholders and globs match any name. */
export function pathPattern(path) {
  const body = path
    .replace(/\/$/, '')
    .replace(EXAMPLE, '$1<example>')
    .split(/(\*\*|\*|<[^>]*>|\{[^}]*\}|…|\.\.\.)/)
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.+?^$()[\]\\|]/g, '\\$&')
      return part === '**' || part === '…' || part === '...' ? '.*' : '[^/]*'
    })
    .join('')
  return new RegExp(`^${body}(/.*)?$`)
}

/** Whether a mentioned path names a file or folder of the repository (`files`: every tracked path). */
export function exists(path, files, root = '.') {
  if (!/[*<>{}…]|\.\.\./.test(path) && !EXAMPLE.test(path)) return existsSync(join(root, path))
  const pattern = pathPattern(path)
  return files.some((f) => pattern.test(f))
}

function trackedFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
  return out.split('\0').filter(Boolean)
}

/** Every problem found in one file's text, as `file:line: message`. */
export function problems(file, text, allFiles, root = '.') {
  const out = []
  const isDoc = file.endsWith('.md')
  const chunks = isDoc ? [text] : comments(text)
  const lineOf = (needle) => {
    const i = text.indexOf(needle)
    return i < 0 ? 0 : text.slice(0, i).split('\n').length
  }
  // Tracker references: anywhere in a doc or a source (a test title is read as much as a comment).
  for (const m of text.matchAll(ISSUE_REFERENCE)) {
    out.push(`${file}:${text.slice(0, m.index).split('\n').length}: "${m[0]}": say the rule, not the tracker's number`)
  }
  for (const chunk of chunks)
    for (const path of mentionedPaths(chunk)) {
      if (PATHS_NOT_CHECKED.some((p) => path.startsWith(p))) continue
      // A relative link in a doc (`../src/x.ts`) resolves against the doc's folder.
      const relative = isDoc && chunk.includes(`../${path}`) ? normalize(join(dirname(file), '..', path)) : path
      if (exists(path, allFiles, root) || exists(relative, allFiles, root)) continue
      out.push(`${file}:${lineOf(path)}: ${path} does not exist`)
    }
  return out
}

export function checkRepository(root) {
  const files = trackedFiles(root)
  const scanned = files.filter((f) => TEXT.test(f) && !NOT_SCANNED.some((p) => p.test(f)) && existsSync(join(root, f)))
  return scanned.flatMap((f) => problems(f, readFileSync(join(root, f), 'utf8'), files, root))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = checkRepository(process.cwd())
  if (found.length === 0) console.log('docs-check: no tracker references, every mentioned path exists')
  else {
    console.error(`docs-check: ${found.length} problem(s):\n${found.join('\n')}`)
    process.exitCode = 1
  }
}
