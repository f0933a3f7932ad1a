import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EDGE_FUNCTIONS } from '../../supabase/local/functions/registry.ts'
import { EDGE_FUNCTIONS_ON_DENO, HOSTED_ENV } from './functions.ts'

// The Deno check (check.ts) covers exactly the functions there are, and what a hosted deployment
// needs to know about each one is written down where the CLI and the operator read it.

const root = join(import.meta.dirname, '..', '..')
const functionsDir = join(root, 'supabase', 'functions')
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')
const folders = readdirSync(functionsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort()
const names = Object.keys(EDGE_FUNCTIONS_ON_DENO).sort()

/** The Deno-only modules an entry point reaches (index.ts and the *.deno.ts it imports, transitively). */
function denoModules(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+\.deno\.ts)'/g))
    denoModules(join(dirname(file), spec!), seen)
  return seen
}

const envRead = (file: string) =>
  [...denoModules(file)].flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/Deno\.env\.get\('([A-Z_]+)'\)/g)].map((m) => m[1]!))

/** `[functions.<name>]` tables of supabase/config.toml, key = value lines only. */
function functionSettings(toml: string): Map<string, Record<string, string>> {
  const tables = new Map<string, Record<string, string>>()
  let current: Record<string, string> | undefined
  for (const line of toml.split('\n')) {
    const header = /^\[([^\]]+)\]\s*$/.exec(line.trim())
    if (header) {
      const fn = /^functions\.("?)([a-z0-9-]+)\1$/.exec(header[1]!)
      current = fn ? {} : undefined
      if (fn) tables.set(fn[2]!, current!)
      continue
    }
    const pair = /^([a-z_]+)\s*=\s*(.+?)\s*$/.exec(line.trim())
    if (pair && current) current[pair[1]!] = pair[2]!
  }
  return tables
}

describe('edge functions on Deno', () => {
  it('the check lists every function folder, and each has a Deno entry point', () => {
    expect(names).toEqual(folders)
    for (const name of folders) expect(readdirSync(join(functionsDir, name)), name).toContain('index.ts')
  })

  it('the local backend serves the same functions', () => {
    expect(Object.keys(EDGE_FUNCTIONS).sort()).toEqual(names)
  })

  it('config.toml gives each function its verify_jwt and the shared import map', () => {
    const settings = functionSettings(read('supabase', 'config.toml'))
    expect([...settings.keys()].sort()).toEqual(names)
    for (const name of names) {
      expect(settings.get(name), name).toEqual({
        enabled: 'true',
        verify_jwt: String(EDGE_FUNCTIONS_ON_DENO[name]!.verifyJwt),
        import_map: '"./functions/deno.json"',
        entrypoint: `"./functions/${name}/index.ts"`,
      })
    }
  })

  it("each function's secrets are exactly the environment its entry point reads", () => {
    for (const name of names) {
      const read = new Set(envRead(join(functionsDir, name, 'index.ts')))
      const expected = new Set([...HOSTED_ENV, ...EDGE_FUNCTIONS_ON_DENO[name]!.secrets])
      expect(
        [...read].filter((key) => !expected.has(key)),
        `${name} reads a secret the list does not name`,
      ).toEqual([])
      expect(
        EDGE_FUNCTIONS_ON_DENO[name]!.secrets.filter((key) => !read.has(key)),
        `${name} lists a secret it does not read`,
      ).toEqual([])
    }
  })

  it("docs/backend.md's hosted section names every function, its route and every secret", () => {
    const doc = read('docs', 'backend.md')
    const hosted = doc.slice(doc.indexOf('## Using a hosted Supabase project'), doc.indexOf('## Backend tests'))
    expect(hosted.length).toBeGreaterThan(1000)
    for (const name of names) expect(hosted, name).toContain(`/functions/v1/${name}`)
    for (const secret of new Set([...HOSTED_ENV, ...names.flatMap((n) => EDGE_FUNCTIONS_ON_DENO[n]!.secrets)]))
      expect(hosted, secret).toContain(`\`${secret}\``)
  })

  it('the npm packages Deno imports are the versions package.json pins for Node', () => {
    const pinned = JSON.parse(read('package.json')) as { dependencies: Record<string, string> }
    const importMap = JSON.parse(read('supabase', 'functions', 'deno.json')) as { imports: Record<string, string> }
    const specifiers = [
      ...Object.values(importMap.imports),
      ...readdirSync(functionsDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .flatMap((f) => [...readFileSync(join(functionsDir, f), 'utf8').matchAll(/'(npm:[^']+)'/g)].map((m) => m[1]!)),
    ]
    expect(specifiers.length).toBeGreaterThan(5)
    for (const spec of specifiers) {
      const [, pkg, version] = /^npm:(@?[^@]+)@([^/]+)/.exec(spec) ?? []
      expect(pinned.dependencies[pkg!], spec).toBe(version)
    }
  })
})
