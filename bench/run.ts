/**
 * `npm run bench`: runs every benchmark and prints its figures. Speed targets live here, never in
 * tests; compare ratios measured in the same run (this 2-core machine is noisy, ±15 % between runs).
 *
 * Adding a benchmark:
 *   - bench/node/<name>.bench.ts     runs in this Node process.
 *   - bench/browser/<name>.bench.ts  is bundled by Vite (a production build, so worklets and workers
 *                                    load exactly as in the app) into one page, served locally and
 *                                    run in headless Chromium (tests/e2e/support/browser.ts flags).
 *   Both kinds export `async function run(): Promise<BenchResult[]>` (bench/types.ts). Browser
 *   benches may import anything from src/, audio-worklets/ and workers/.
 *   In the page, `await window.cubeBenchCpuSeconds()` (bench/browser/cpu-time.ts: cpuSeconds())
 *   returns the CPU seconds used so far by Chromium's processes (Linux /proc; null elsewhere):
 *   differences of it measure work independently of other load on the machine, unlike wall time.
 *
 * Usage: npm run bench [-- filter]   (filter: substring of the bench file name)
 * Env:   BENCH_PORT (default: any free port) for the local page server.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BenchModule, BenchResult } from './types.ts'
import { soundfontBankPlugin } from '../scripts/soundfont-bank-plugin.ts'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const filter = process.argv[2] ?? ''

function benchFiles(kind: 'node' | 'browser'): string[] {
  const dir = join(BENCH_DIR, kind)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
    .sort()
    .map((f) => join(dir, f))
}

function print(bench: string, results: BenchResult[]): void {
  console.log(`\n## ${bench}`)
  const width = Math.max(...results.map((r) => r.name.length))
  for (const r of results) {
    const value = Math.abs(r.value) >= 100 ? r.value.toFixed(0) : Math.abs(r.value) >= 10 ? r.value.toFixed(1) : r.value.toFixed(2)
    console.log(`  ${r.name.padEnd(width)}  ${value.padStart(8)} ${r.unit}${r.detail ? `   (${r.detail})` : ''}`)
  }
}

async function runNode(files: string[]): Promise<void> {
  for (const file of files) {
    const mod = (await import(pathToFileURL(file).href)) as BenchModule
    print(`node/${file.split('/').pop()}`, await mod.run())
  }
}

/** utime + stime of every process descended from this one (the browser Playwright launched), in seconds. */
function descendantCpuSeconds(): number | null {
  if (!existsSync('/proc/self/stat')) return null
  const parent = new Map<number, number>()
  const cpu = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the parenthesised command name: state ppid … utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parent.set(Number(entry), Number(fields[1]))
      cpu.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // process ended while scanning
    }
  }
  let ticks = 0
  for (const [pid, t] of cpu) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        ticks += t
        break
      }
    }
  }
  return ticks / 100 // USER_HZ is 100 on Linux
}

const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
}

function serve(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = resolve(root, '.' + decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    const file = path.startsWith(root) && statSync(path, { throwIfNoEntry: false })?.isFile() ? path : join(root, 'index.html')
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      // Same isolation headers as the app's servers, so SharedArrayBuffer-based code can be benched.
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    })
    res.end(readFileSync(file))
  })
  return new Promise((ok) =>
    server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
      const address = server.address()
      ok({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` })
    }),
  )
}

async function runBrowser(files: string[]): Promise<void> {
  if (files.length === 0) return
  const { build } = await import('vite')
  const { chromium } = await import('@playwright/test')
  const { launchOptions } = await import('../tests/e2e/support/browser.ts')
  const outDir = mkdtempSync(join(tmpdir(), 'cube-bench-'))
  const virtualId = 'virtual:cube-benches'
  let server: Server | undefined
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined
  try {
    await build({
      configFile: false,
      root: join(BENCH_DIR, 'browser'),
      base: './',
      logLevel: 'warn',
      worker: { format: 'es' },
      build: { outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
      plugins: [
        // The GM bank at the app's own path, for the instrument benches.
        soundfontBankPlugin(),
        {
          name: 'cube:bench-list',
          resolveId: (id) => (id === virtualId ? '\0' + virtualId : null),
          load: (id) =>
            id === '\0' + virtualId
              ? `export const benches = ` +
                `{${files
                  .map((f) => `${JSON.stringify(f.split('/').pop()!.replace('.bench.ts', ''))}: () => ` + `import(${JSON.stringify(f)})`)
                  .join(',')}}`
              : null,
        },
      ],
    })
    const served = await serve(outDir)
    server = served.server
    browser = await chromium.launch(launchOptions([], { full: true }))
    const page = await browser.newPage()
    await page.exposeFunction('cubeBenchCpuSeconds', descendantCpuSeconds)
    page.on('console', (m) => {
      if (m.type() === 'error') console.error(`[browser] ${m.text()}`)
    })
    await page.goto(served.url)
    await page.waitForFunction(() => 'cubeBench' in window)
    const names = await page.evaluate(() => (window as unknown as { cubeBench: { names: string[] } }).cubeBench.names)
    for (const name of names) {
      const results = await page.evaluate(
        (n) => (window as unknown as { cubeBench: { run(n: string): Promise<BenchResult[]> } }).cubeBench.run(n),
        name,
      )
      print(`browser/${name}.bench.ts (Chromium ${browser.version()})`, results)
    }
  } finally {
    await browser?.close()
    server?.close()
    rmSync(outDir, { recursive: true, force: true })
  }
}

const started = Date.now()
await runNode(benchFiles('node'))
await runBrowser(benchFiles('browser'))
console.log(`\nbench done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
