// What each domain slice and feature folder really imports, written into its CONTEXT.md between
// two markers, from the code (every import of its non-test modules, type-only ones too), so the
// file says what the folder depends on rather than what it may depend on.
// Usage: node tools/lint/folder-dependencies.mjs [--write]
//   without --write (as `npm run lint` runs it): exits 1 and names each CONTEXT.md that is stale.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listModules } from './import-cycles.mjs'

export const START = '<!-- dependencies: written by node tools/lint/folder-dependencies.mjs --write -->'
export const END = '<!-- /dependencies -->'
const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm
const AREAS = ['src/engine', 'src/backend', 'src/lib', 'src/ui', 'src/config', 'workers', 'audio-worklets', 'dsp']

/** The area a resolved path belongs to: a domain slice, a feature, a platform folder, or null. */
export function areaOf(path) {
  const slice = /^src\/(domain|features)\/([^/]+)\//.exec(path)
  if (slice) return `src/${slice[1]}/${slice[2]}`
  return AREAS.find((a) => path === a || path.startsWith(`${a}/`)) ?? null
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
export const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/')

/** Areas (other than the folder itself) and npm packages the folder's modules import. */
export function dependencies(root, folder) {
  const areas = new Set()
  const packages = new Set()
  for (const path of listModules(join(root, folder))) {
    for (const m of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
      const spec = (m[1] ?? m[2]).split('?')[0]
      if (spec.startsWith('.')) {
        const area = areaOf(relative(root, resolve(dirname(path), spec)))
        if (area && area !== folder) areas.add(area)
      } else if (!spec.startsWith('node:') && !spec.startsWith('virtual:')) packages.add(packageOf(spec))
    }
  }
  return { areas: [...areas].sort(), packages: [...packages].sort() }
}

const code = (names) => names.map((n) => `\`${n}\``).join(', ')

/** The line written into a CONTEXT.md. */
export function dependencyLine({ areas, packages }) {
  const slices = areas.filter((a) => a.startsWith('src/domain/')).map((a) => a.slice('src/domain/'.length))
  const platform = areas.filter((a) => !a.startsWith('src/domain/'))
  const parts = []
  if (slices.length) parts.push(`the domain's ${code(slices)}`)
  if (platform.length) parts.push(code(platform))
  if (packages.length) parts.push(`npm ${code(packages)}`)
  return `**Depends on** (from its imports): ${parts.length ? parts.join('; ') : 'nothing outside its folder'}.`
}

/** The domain slices and feature folders that have a CONTEXT.md. */
export function folders(root) {
  return ['src/domain', 'src/features'].flatMap((tier) =>
    readdirSync(join(root, tier))
      .map((name) => `${tier}/${name}`)
      .filter((f) => statSync(join(root, f)).isDirectory() && statSync(join(root, f, 'CONTEXT.md'), { throwIfNoEntry: false })),
  )
}

/** The CONTEXT.md text with its dependency block replaced (or null when it has no markers). */
export function withDependencies(text, line) {
  const from = text.indexOf(START)
  const to = text.indexOf(END)
  if (from < 0 || to < from) return null
  return `${text.slice(0, from)}${START}\n${line}\n${text.slice(to)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd()
  const write = process.argv.includes('--write')
  const stale = []
  for (const folder of folders(root)) {
    const file = join(root, folder, 'CONTEXT.md')
    const text = readFileSync(file, 'utf8')
    const next = withDependencies(text, dependencyLine(dependencies(root, folder)))
    if (next === null) stale.push(`${folder}/CONTEXT.md has no dependency block (${START} … ${END})`)
    else if (next !== text) {
      if (write) writeFileSync(file, next)
      else stale.push(`${folder}/CONTEXT.md lists other dependencies than its imports`)
    }
  }
  if (stale.length && !write) {
    console.error(`${stale.join('\n')}\nRun: node tools/lint/folder-dependencies.mjs --write`)
    process.exitCode = 1
  } else if (stale.length) console.error(stale.join('\n'))
  else console.log('folder-dependencies: every CONTEXT.md lists its folder’s imports')
}
