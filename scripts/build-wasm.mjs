// Compiles every AssemblyScript module folder `audio-worklets/wasm/<module>/` (entry `index.ts`) to
// `audio-worklets/wasm/<module>.wasm`: a release build (-O3, no assertions), SIMD on, the stub
// runtime (nothing is ever freed: every module allocates its state once, at init, and never again).
// The output is deterministic (same sources and compiler, same bytes), so the .wasm files are
// committed and checked instead of built at install time (audio-worklets/CONTEXT.md says why).
//
//   node scripts/build-wasm.mjs           writes every module's .wasm
//   node scripts/build-wasm.mjs --check   writes nothing; fails if a committed .wasm is missing or
//                                         differs from what its sources compile to (npm run lint)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import asc from 'assemblyscript/asc'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const WASM_DIR = join(ROOT, 'audio-worklets', 'wasm')
const check = process.argv.includes('--check')

const FLAGS = ['-O3', '--noAssert', '--runtime', 'stub', '--enable', 'simd', '--noColors']

/** The module folders: every directory under audio-worklets/wasm with an index.ts. */
function modules() {
  if (!existsSync(WASM_DIR)) return []
  return readdirSync(WASM_DIR)
    .filter((name) => statSync(join(WASM_DIR, name)).isDirectory() && existsSync(join(WASM_DIR, name, 'index.ts')))
    .sort()
}

async function compile(name) {
  const entry = join(WASM_DIR, name, 'index.ts')
  let binary = null
  const errors = []
  const { error, stderr } = await asc.main([relative(ROOT, entry), '--outFile', `${name}.wasm`, ...FLAGS], {
    baseDir: ROOT,
    writeFile(file, contents) {
      if (file.endsWith('.wasm')) binary = Buffer.from(contents)
    },
    stderr: { write: (s) => errors.push(String(s)) },
  })
  if (error || !binary) {
    const why = errors.join('') || error?.message || String(stderr)
    throw new Error(`AssemblyScript could not compile ${relative(ROOT, entry)}:\n${why}`)
  }
  return binary
}

let stale = 0
for (const name of modules()) {
  const binary = await compile(name)
  const target = join(WASM_DIR, `${name}.wasm`)
  const rel = relative(ROOT, target)
  if (check) {
    if (!existsSync(target)) {
      console.error(`${rel} is missing: run node scripts/build-wasm.mjs and commit it`)
      stale++
    } else if (!readFileSync(target).equals(binary)) {
      console.error(`${rel} is out of date with audio-worklets/wasm/${name}/: run node scripts/build-wasm.mjs and commit it`)
      stale++
    }
  } else {
    writeFileSync(target, binary)
    console.log(`${rel}: ${binary.length} bytes`)
  }
}
if (stale > 0) process.exit(1)
