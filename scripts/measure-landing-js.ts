// Prints the JavaScript a first visit to the landing page downloads before it can render:
// the entry chunk, the landing page chunk and every chunk they import statically (gzip sizes).
// Usage: npm run build && npm run size
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

interface ManifestEntry {
  file: string
  imports?: string[]
  isEntry?: boolean
  src?: string
}

const dist = process.argv[2] ?? 'dist'
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestEntry>

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)
const landingKey = Object.keys(manifest).find((k) => k.endsWith('features/landing/LandingPage.tsx'))
if (!entryKey || !landingKey) throw new Error('manifest has no entry or landing chunk: build first')

const files = new Set<string>()
const visit = (key: string) => {
  const chunk = manifest[key]
  if (!chunk || files.has(chunk.file)) return
  files.add(chunk.file)
  for (const dep of chunk.imports ?? []) visit(dep)
}
visit(entryKey)
visit(landingKey)

const FORBIDDEN = ['tone', 'ethers', 'wavesurfer', 'qrcode', 'dnd-kit', 'supabase']
let total = 0
for (const file of [...files].sort()) {
  const source = readFileSync(join(dist, file))
  const gz = gzipSync(source, { level: 9 }).length
  total += gz
  console.log(`${(gz / 1024).toFixed(1).padStart(8)} KB gzip  ${file}`)
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB gzip  landing page initial JavaScript (${files.size} files)`)
// Chunks named after their folder (spessasynth_core's is 'dist-….js', supabase-js's 'client-….js') are caught by
// what they hold: the SoundFont synthesizer and the 14.6 MB GM bank load only when something renders instruments,
// the backend client when something calls the server.
const FORBIDDEN_CONTENT = ['SpessaSynthProcessor', 'FluidR3Mono_GM.sf3', 'supabase-js']
const leaked = [...files].filter(
  (f) =>
    FORBIDDEN.some((name) => f.toLowerCase().includes(name)) ||
    FORBIDDEN_CONTENT.some((text) => readFileSync(join(dist, f), 'utf8').includes(text)),
)
// The target of docs/benchmarks.md ("Landing page initial JavaScript").
const BUDGET_KB = 150
if (total / 1024 > BUDGET_KB) {
  console.error(`the landing page's initial JavaScript is ${(total / 1024).toFixed(1)} KB gzip, over its ${BUDGET_KB} KB budget`)
  process.exitCode = 1
}
if (leaked.length) {
  console.error(`heavy chunks in the landing page's initial load: ${leaked.join(', ')}`)
  process.exitCode = 1
}
