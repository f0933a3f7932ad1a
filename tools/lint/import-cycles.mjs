// Finds import cycles among the app's modules: a cycle makes module start-up order depend on which
// file is imported first (a barrel knot). Type-only imports vanish at run time and
// are not counted; static, re-export and dynamic imports are.
// Usage: node tools/lint/import-cycles.mjs [folder ...]   (default: src) — exits 1 when a cycle exists.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const SOURCE = /\.(ts|tsx|mjs|js)$/
const SPECIFIER = /(?:^|[\s;}])(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm

export function listModules(folder) {
  const out = []
  for (const name of readdirSync(folder)) {
    const path = join(folder, name)
    if (statSync(path).isDirectory()) out.push(...listModules(path))
    else if (SOURCE.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** Relative runtime imports of one module's source text, resolved against its path. */
export function runtimeImports(path, text) {
  const found = []
  for (const m of text.matchAll(SPECIFIER)) {
    const typeOnly = Boolean(m[2])
    const spec = m[3] ?? m[4]
    if (typeOnly || !spec.startsWith('.')) continue
    found.push(resolve(dirname(path), spec.split('?')[0]))
  }
  return found
}

/** Every cycle's member list (strongly connected components of more than one module, or a self-import). */
export function findCycles(graph) {
  let index = 0
  const stack = []
  const meta = new Map()
  const cycles = []
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true })
    index += 1
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!meta.has(w)) {
        visit(w)
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low)
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index)
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = []
      let w
      do {
        w = stack.pop()
        meta.get(w).onStack = false
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!meta.has(v)) visit(v)
  return cycles
}

export function importGraph(folders) {
  const graph = new Map()
  for (const folder of folders) for (const path of listModules(folder)) graph.set(path, runtimeImports(path, readFileSync(path, 'utf8')))
  return graph
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd()
  const folders = (process.argv.length > 2 ? process.argv.slice(2) : ['src']).map((f) => resolve(root, f))
  const cycles = findCycles(importGraph(folders))
  if (cycles.length === 0) {
    console.log(`import-cycles: no cycles in ${folders.map((f) => relative(root, f)).join(', ')}`)
  } else {
    for (const c of cycles) console.error(`import cycle (${c.length} modules):\n  ${c.map((p) => relative(root, p)).join('\n  ')}`)
    process.exitCode = 1
  }
}
